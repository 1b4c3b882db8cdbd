/**
 * When the extension captures a tab's WebSocket traffic (the options page sets it; the
 * background enforces it). Pure: no browser API, so the background, the options page and
 * tests share it.
 * - `always` (the default): every tab, from the page's start, so a panel opened late still
 *   shows what came before;
 * - `devtools`: only tabs with DevTools (or wirescope's panel) open; nothing is kept for a
 *   tab once they close;
 * - `sites`: only documents whose host is listed (`example.com`, `*.example.com`,
 *   `localhost:8080`).
 * What is not captured is counted and shown in the panel as "not captured", never silent.
 */
export type CaptureMode = 'always' | 'devtools' | 'sites';

export interface CapturePolicy {
  readonly mode: CaptureMode;
  /** Host patterns for `sites`, one per entry. */
  readonly sites: readonly string[];
  /** False: the panel's actions on the page (Send again, Deliver to page) are turned off. Absent: on. */
  readonly actions?: false;
}

export const DEFAULT_POLICY: CapturePolicy = { mode: 'always', sites: [] };
/** Key in `storage.local`. */
export const POLICY_KEY = 'capturePolicy';
/** At most this many site patterns of at most 253 characters are kept. */
export const MAX_SITES = 500;

const MODES: readonly CaptureMode[] = ['always', 'devtools', 'sites'];

/** A stored value (anything) → a policy: unknown or malformed parts fall back to the default. */
export function parsePolicy(v: unknown): CapturePolicy {
  if (typeof v !== 'object' || v === null) return DEFAULT_POLICY;
  const o = v as Record<string, unknown>;
  const mode = MODES.includes(o.mode as CaptureMode) ? (o.mode as CaptureMode) : DEFAULT_POLICY.mode;
  const sites = Array.isArray(o.sites)
    ? parseSites(o.sites.filter((s): s is string => typeof s === 'string').join('\n'))
    : [];
  return o.actions === false ? { mode, sites, actions: false } : { mode, sites };
}

/** Whether the panel may act on the page (send, deliver): on unless the options turned it off. */
export const allowsActions = (policy: CapturePolicy): boolean => policy.actions !== false;

/** The options page's text (one pattern per line, or separated by commas / spaces) → clean patterns. */
export function parseSites(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    let p = raw.trim().toLowerCase();
    if (!p) continue;
    // Accept a pasted URL: keep its host (and port).
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//.exec(p);
    if (scheme) p = p.slice(scheme[0].length);
    p = p.replace(/[/?#].*$/, '');
    if (p.length > 253 || !/^(\*\.)?[a-z0-9.\-[\]:]+$/.test(p) || out.includes(p)) continue;
    out.push(p);
    if (out.length >= MAX_SITES) break;
  }
  return out;
}

/** True when `url`'s host (with or without its port) is one of the patterns. */
export function siteListed(sites: readonly string[], url: string): boolean {
  let host: string;
  let hostPort: string;
  try {
    const u = new URL(url);
    host = u.hostname.toLowerCase();
    hostPort = u.host.toLowerCase();
  } catch {
    return false;
  }
  if (!host) return false;
  return sites.some((p) => {
    if (p.startsWith('*.')) {
      const base = p.slice(2);
      return host === base || host.endsWith(`.${base}`) || hostPort === base || hostPort.endsWith(`.${base}`);
    }
    return p === host || p === hostPort;
  });
}

/** Whether a document's batch is captured: its URL (the frame's, from the browser), and whether DevTools is open on its tab. */
export function allowsCapture(
  policy: CapturePolicy,
  where: { readonly url: string; readonly devtoolsOpen: boolean },
): boolean {
  switch (policy.mode) {
    case 'always':
      return true;
    case 'devtools':
      return where.devtoolsOpen;
    case 'sites':
      return siteListed(policy.sites, where.url);
  }
}

/** Why a tab's frames were not captured, as the panel says it. */
export function notCapturedReason(policy: CapturePolicy): string {
  return policy.mode === 'devtools'
    ? 'not captured: the options say to capture only while DevTools is open on the tab'
    : "not captured: the site is not in the options' list of sites to capture";
}
