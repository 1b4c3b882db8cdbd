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
}

const textDecoder = new TextDecoder('utf-8', { fatal: false });

/** Literal tokens of the JSON rendering (json-text.ts) a needle could be a piece of. */
const LITERALS = ['true', 'false', 'null', 'undefined', '-infinity', 'nan', 'tag(', 'simple(', 'ext('];

/** Can `needle` (lowercase) occur in the rendering outside of one key's or string's own characters? */
export function mayCrossTokens(needle: string): boolean {
  if (/["\\{}[\],:()]/.test(needle)) return true;
  // Escapes (`\n`, `\u001f`) put these letters right before string content.
  if (/^[0-9a-fnrtu]/.test(needle)) return true;
  if (/^[-+.0-9e]+$/.test(needle) || /^[-0-9:.tz]+$/.test(needle) || /^h?'?[0-9a-f]*'?$/.test(needle)) return true;
  if (LITERALS.some((l) => l.includes(needle))) return true;
  // Lowercasing Σ depends on what follows it, which differs between raw bytes and rendering.
  return /[σς]/.test(needle);
}

/** null: no content filter. */
export function compileQuery(text: string, path: string): ContentQuery | null | { readonly error: string } {
  const textLower = text.toLowerCase();
  const parsed = path.trim() ? parsePath(path) : null;
  if (!textLower && !parsed) return null;
  if (parsed && !parsed.ok) return { error: `${parsed.error} at character ${parsed.offset}` };
  return { textLower, parts: parsed && parsed.ok ? parsed.parts : null, stringOnly: textLower !== '' && !mayCrossTokens(textLower) };
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
  if (query.parts === null && query.stringOnly && format && RAW_STRING_FORMATS.has(format) && rawStringsOnly(frame.data, format)) {
    if (!textDecoder.decode(frame.data).toLowerCase().includes(query.textLower)) return false;
    return someStringHolds(new SpanIndex(frame.data, walkers[format as FrameFormat], { depth: Infinity }), query.textLower);
  }
  return matchesRendered(frame, query);
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
  for (let id = 0; id < index.store.size; id++) if (kind[id] === Kind.text && String(index.value(id)).toLowerCase().includes(needle)) return true;
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
