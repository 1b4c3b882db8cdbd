/**
 * The frame list's text and path filters, run in the worker. The definition is simple: a
 * frame matches text when the text occurs, case-insensitively, in the frame's decoded value
 * rendered as JSON (json-text.ts), or in its text when it is plain text; a path filter keeps
 * the frames where the path resolves (and, with text, one of its values holds the text).
 *
 * Rendering every frame as JSON costs ~150 ms per MB, far too slow for a 100 MB capture, so
 * most needles take a fast route that gives the same answer (content-search.test.ts checks
 * it against the definition). A needle with no JSON punctuation that cannot be a piece of a
 * number, literal, date, hex byte string, tag or escape can only occur inside one key or
 * string. In CBOR (definite strings), MessagePack and JSON without escapes those strings are
 * the frame's raw UTF-8, so a frame whose raw text does not hold the needle cannot match
 * (one TextDecoder pass, ~5 ms per MB); a frame whose raw text does (perhaps only across a
 * header byte: CBOR's `65` is "e") is confirmed on its string leaves.
 */
import { decodeFrame, SpanIndex, walkers, Kind, type FrameFormat } from '../../../codecs/index.js';
import type { IngestFrame } from './api.js';
import { jsonText } from './json-text.js';
import { parsePath, resolvePath, type PathPart } from './path-filter.js';

export interface ContentQuery {
  readonly textLower: string;
  /** Path parts, or null for a text-only filter. */
  readonly parts: readonly PathPart[] | null;
  /** The needle can only occur inside a key or string (see the file comment). */
  readonly stringOnly: boolean;
  /** What a frame's raw text must hold for a string of it to match ('' : no fast route). */
  readonly probe: string;
}

const textDecoder = new TextDecoder('utf-8', { fatal: false });

/** Literal tokens of the JSON rendering (json-text.ts) a needle could be a piece of. */
const LITERALS = ['true', 'false', 'null', 'undefined', '-infinity', 'nan', 'tag(', 'simple(', 'ext('];

/**
 * Can `needle` (lowercase) occur in the rendering outside of keys' and strings' own
 * characters (punctuation, numbers, literals, dates, hex byte strings, tags)?
 */
export function mayCrossTokens(needle: string): boolean {
  if (/["\\{}[\],:()]/.test(needle)) return true;
  if (/^[-+.0-9e]+$/.test(needle) || /^h?'?[0-9a-f]*'?$/.test(needle)) return true;
  // Pieces of an ISO date (msgpack timestamps): digits and -:. with at most a T or a Z.
  if (/^[-0-9:.tz]+$/.test(needle) && (/[-0-9:.]/.test(needle) || needle.length === 1)) return true;
  if (LITERALS.some((l) => l.includes(needle))) return true;
  // Lowercasing Σ depends on what follows it, which differs between raw bytes and rendering.
  return /[σς]/.test(needle);
}

/** The escapes JSON.stringify writes inside strings, without their backslash (`t`, `u001f`, …). */
const ESCAPES: readonly string[] = Array.from({ length: 0x20 }, (_, c) => JSON.stringify(String.fromCharCode(c)).slice(2, -1));

/**
 * What the raw text must hold for a string to render with the needle in it. A needle may
 * begin inside an escape the rendering adds (`\t`, `\u001f`): then only what follows the
 * escape is raw string content. '' when nothing can be required (short needles).
 */
export function rawProbe(needle: string): string {
  let inEscape = 0;
  for (const e of ESCAPES) for (let k = 1; k <= e.length; k++) if (k > inEscape && needle.startsWith(e.slice(e.length - k))) inEscape = k;
  return needle.slice(inEscape);
}

/** null: no content filter. */
export function compileQuery(text: string, path: string): ContentQuery | null | { readonly error: string } {
  const textLower = text.toLowerCase();
  const parsed = path.trim() ? parsePath(path) : null;
  if (!textLower && !parsed) return null;
  if (parsed && !parsed.ok) return { error: `${parsed.error} at character ${parsed.offset}` };
  const stringOnly = textLower !== '' && !mayCrossTokens(textLower);
  return { textLower, parts: parsed && parsed.ok ? parsed.parts : null, stringOnly, probe: stringOnly ? rawProbe(textLower) : '' };
}

/** Formats whose strings are their raw UTF-8 (JSON only without escapes: checked per frame). */
const RAW_STRING_FORMATS = new Set(['cbor', 'msgpack', 'json']);

/** What frameMatches needs from a list row: the format it decoded whole as, null for plain text / undecodable, undefined for malformed. */
export function searchFormat(summary: { readonly format: string | null; readonly error: unknown }): string | null | undefined {
  if (summary.format === null) return null;
  return summary.error ? undefined : summary.format;
}

/**
 * Does the frame match? `format` is what its list row was read as (null: plain text or
 * undecodable; undefined: not known, read it again).
 */
export function frameMatches(frame: IngestFrame, format: string | null | undefined, query: ContentQuery): boolean {
  if (query.parts === null && format === null) return textDecoder.decode(frame.data).toLowerCase().includes(query.textLower);
  if (query.parts === null && query.probe && format && RAW_STRING_FORMATS.has(format) && rawStringsOnly(frame.data, format)) {
    const at = rawIndexOf(frame.data, query.probe, 0);
    if (at === -1) return false;
    // In CBOR / MessagePack a hit of the whole needle counts when it lies inside one string's
    // bytes; a needle that may begin inside an escape needs the full check only without one.
    if (at !== ASCII_LOWERING && format !== 'json') {
      const hit = query.probe === query.textLower ? at : rawIndexOf(frame.data, query.textLower, 0);
      if (hit >= 0 && someHitInString(frame.data, format as FrameFormat, query.textLower, hit)) return true;
      if (query.probe === query.textLower) return false;
    }
    return someStringHolds(new SpanIndex(frame.data, walkers[format as FrameFormat], { depth: Infinity }), query.textLower);
  }
  return matchesRendered(frame, query);
}

/**
 * Does the raw text hold `probe` (lowercase), case-insensitively? ASCII probes are matched on
 * the bytes (no string made): the same answer as lowercasing the decoded text, because the
 * only non-ASCII characters that lowercase to ASCII are U+0130 and U+212A, whose frames take
 * the decoding way.
 */
export function rawHolds(bytes: Uint8Array, probe: string): boolean {
  return rawIndexOf(bytes, probe, 0) !== -1;
}

/** rawIndexOf's answer when it decoded the text to decide: a hit, at no byte offset. */
const ASCII_LOWERING = -2;

/** The byte offset of the next case-insensitive occurrence of an ASCII probe from `from`; -1: none; ASCII_LOWERING: a hit found on the decoded text. */
function rawIndexOf(bytes: Uint8Array, probe: string, from: number): number {
  if (!/^[\x00-\x7f]*$/.test(probe) || hasAsciiLowering(bytes)) return textDecoder.decode(bytes).toLowerCase().includes(probe) ? ASCII_LOWERING : -1;
  const n = probe.length;
  const first = probe.charCodeAt(0);
  const upper = first >= 0x61 && first <= 0x7a ? first - 0x20 : first;
  const last = bytes.length - n;
  for (let i = from; i <= last; i++) {
    const b = bytes[i];
    if (b !== first && b !== upper) continue;
    let k = 1;
    for (; k < n; k++) {
      let c = bytes[i + k];
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (c !== probe.charCodeAt(k)) break;
    }
    if (k === n) return i;
  }
  return -1;
}

/** Does some occurrence of the probe (the first at `at`) lie inside one text string's payload? */
function someHitInString(bytes: Uint8Array, format: FrameFormat, probe: string, at: number): boolean {
  const index = new SpanIndex(bytes, walkers[format], { depth: 1 });
  if (index.error) return false;
  for (; at >= 0; at = rawIndexOf(bytes, probe, at + 1)) {
    const id = index.nodeAt(at);
    // The store's arrays grow as nodeAt records: read them after it.
    const { kind, start, end, head } = index.store;
    if (id >= 0 && kind[id] === Kind.text && at >= start[id] + head[id] && at + probe.length <= end[id]) return true;
  }
  return false;
}

/** U+0130 (c4 b0) and U+212A (e2 84 aa) lowercase to ASCII letters. */
function hasAsciiLowering(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(0xc4); i >= 0; i = bytes.indexOf(0xc4, i + 1)) if (bytes[i + 1] === 0xb0) return true;
  for (let i = bytes.indexOf(0xe2); i >= 0; i = bytes.indexOf(0xe2, i + 1)) if (bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa) return true;
  return false;
}

/** CBOR indefinite strings split their text in chunks; JSON escapes differ from their text. */
function rawStringsOnly(bytes: Uint8Array, format: string): boolean {
  if (format === 'cbor') return bytes.indexOf(0x7f) < 0;
  if (format === 'json') return bytes.indexOf(0x5c) < 0;
  return true;
}

function someStringHolds(index: SpanIndex, needle: string): boolean {
  if (index.error) return false;
  const { kind } = index.store;
  // As rendered: JSON.stringify adds the escapes the rendering has (the needle holds no quote).
  for (let id = 0; id < index.store.size; id++) if (kind[id] === Kind.text && JSON.stringify(String(index.value(id))).toLowerCase().includes(needle)) return true;
  return false;
}

/** The definition itself: the decoded value rendered as JSON. */
function matchesRendered(frame: IngestFrame, query: ContentQuery): boolean {
  const d = decodeFrame(frame.data, { isText: frame.opcode === 'text' });
  if (!d.index || d.index.root < 0) return query.parts === null && textDecoder.decode(frame.data).toLowerCase().includes(query.textLower);
  const value = d.index.value(d.index.root);
  const targets = query.parts ? resolvePath(value, query.parts) : [value];
  if (targets.length === 0) return false;
  if (!query.textLower) return true;
  return targets.some((t) => jsonText(t, Infinity, undefined).text.toLowerCase().includes(query.textLower));
}
