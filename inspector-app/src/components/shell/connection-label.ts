/**
 * A connection's URL made short enough for the status bar: the host (with its port) and the
 * path's last segment, "…/" standing for the segments between and the query left out —
 * `wss://realtime.example.test/demo/market-data/level2?symbols=BTC` reads
 * `realtime.example.test/…/level2`. The whole URL stays in the label's title.
 * With `after`, the URL of the label shown before it: the same host is not said again
 * (`…/compressed-streams`). Not a URL (a file's connection id): as it is, without its scheme.
 */
export function shortConnectionUrl(url: string, after?: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/^wss?:\/\//, '');
  }
  const segments = parsed.pathname.split('/').filter(Boolean);
  const tail = segments.at(-1);
  if (tail === undefined) return parsed.host || url.replace(/^wss?:\/\//, '');
  const path = `${segments.length > 1 ? '…/' : ''}${tail}`;
  return after !== undefined && hostOf(after) === parsed.host
    ? path.startsWith('…')
      ? path
      : `…/${path}`
    : `${parsed.host}/${path}`;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
