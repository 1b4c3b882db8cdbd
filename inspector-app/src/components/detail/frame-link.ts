import { hashFromBytes, HASH_BYTES_LIMIT } from '../../sources/paste-input.js';

export type FrameLink = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

/**
 * "Link to this frame": the paste page with the bytes in its hash (`#b64=…`), which opens the
 * frame decoded. Frames above the hash limit get a reason instead of a link that breaks.
 */
export function frameLink(
  pastePageUrl: string,
  bytes: Uint8Array,
  limit: number = HASH_BYTES_LIMIT,
  options: { readonly text?: boolean } = {},
): FrameLink {
  // A text frame's link says so (`&text`): the paste page then reads its bytes as the text they were.
  const hash = hashFromBytes(bytes, limit, options);
  if (typeof hash !== 'string')
    return {
      ok: false,
      reason: `too large for a link (${bytes.length.toLocaleString('en-US')} bytes; links carry up to ${Math.round(hash.limit / 1024)} KiB): use Save .bin`,
    };
  const url = new URL(pastePageUrl);
  url.hash = hash;
  return { ok: true, url: url.href };
}
