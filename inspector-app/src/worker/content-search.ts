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
 * string. In CBOR, MessagePack and JSON without escapes those strings are the frame's raw
 * UTF-8, so a frame whose raw bytes do not hold the needle cannot match, and one whose bytes
 * do matches when a hit lies inside one string's payload (not across a head: CBOR's `65` is
 * "e"). Both are read off the bytes with no string made (ascii-find.ts: a native scan for
 * one byte of the needle; string-hits.ts: the heads walked in byte order), ~2 ms per MB for
 * a needle in nearly every frame. Non-ASCII needles, CBOR's indefinite text, needles that
 * may begin inside an escape and characters that lowercase to ASCII take the frame's strings
 * from a full index instead (searchRoute says which way a frame went).
 */
import { decodeFrame, SpanIndex, walkers, Kind, type FrameFormat } from '../../../codecs/index.js';
import type { IngestFrame } from './api.js';
import { jsonText } from './json-text.js';
import { parsePath, resolvePath, type PathPart } from './path-filter.js';
import { asciiNeedle, findAscii, type AsciiNeedle } from './ascii-find.js';
import { hasIndefiniteText, hitInTextString, type StringScanFormat } from './string-hits.js';

export interface ContentQuery {
  readonly textLower: string;
  /** Path parts, or null for a text-only filter. */
  readonly parts: readonly PathPart[] | null;
  /** The needle can only occur inside a key or string (see the file comment). */
  readonly stringOnly: boolean;
  /** What a frame's raw text must hold for a string of it to match ('' : no fast route). */
  readonly probe: string;
  /** The probe and the needle as ASCII bytes to find (null when not ASCII). */
  readonly probeBytes: AsciiNeedle | null;
  readonly needleBytes: AsciiNeedle | null;
  /** Could U+0130 or U+212A lowercase into the needle (it holds an i or a k)? */
  readonly lowersFromNonAscii: boolean;
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
const ESCAPES: readonly string[] = Array.from({ length: 0x20 }, (_, c) =>
  JSON.stringify(String.fromCharCode(c)).slice(2, -1),
);

/**
 * What the raw text must hold for a string to render with the needle in it. A needle may
 * begin inside an escape the rendering adds (`\t`, `\u001f`): then only what follows the
 * escape is raw string content. '' when nothing can be required (short needles).
 */
export function rawProbe(needle: string): string {
  let inEscape = 0;
  for (const e of ESCAPES)
    for (let k = 1; k <= e.length; k++) if (k > inEscape && needle.startsWith(e.slice(e.length - k))) inEscape = k;
  return needle.slice(inEscape);
}

/** null: no content filter. */
export function compileQuery(text: string, path: string): ContentQuery | null | { readonly error: string } {
  const textLower = text.toLowerCase();
  const parsed = path.trim() ? parsePath(path) : null;
  if (!textLower && !parsed) return null;
  if (parsed && !parsed.ok) return { error: `${parsed.error} at character ${parsed.offset}` };
  const stringOnly = textLower !== '' && !mayCrossTokens(textLower);
  const probe = stringOnly ? rawProbe(textLower) : '';
  return {
    textLower,
    parts: parsed?.ok ? parsed.parts : null,
    stringOnly,
    probe,
    probeBytes: asciiNeedle(probe),
    needleBytes: asciiNeedle(textLower),
    lowersFromNonAscii: /[ik]/.test(textLower),
  };
}

/** Formats whose strings are their raw UTF-8, searched by string-hits.ts (JSON only without escapes). */
const RAW_STRING_FORMATS = new Set(['cbor', 'msgpack', 'json']);

/** What frameMatches needs from a list row: the format it decoded whole as, null for plain text / undecodable, undefined for malformed. */
export function searchFormat(summary: {
  readonly format: string | null;
  readonly error: unknown;
}): string | null | undefined {
  if (summary.format === null) return null;
  return summary.error ? undefined : summary.format;
}

/**
 * How frameMatches decided (content-search.test.ts counts them): `text` plain text, `miss`
 * no raw hit, `scan` the hits' places read off the heads (string-hits.ts), `strings` every
 * string of a full index, `rendered` the definition itself.
 */
export type SearchRoute = 'text' | 'miss' | 'scan' | 'strings' | 'rendered';

/**
 * Does the frame match? `format` is what its list row was read as (null: plain text or
 * undecodable; undefined: not known, read it again).
 */
export function frameMatches(frame: IngestFrame, format: string | null | undefined, query: ContentQuery): boolean {
  return searchRoute(frame, format, query).matches;
}

export function searchRoute(
  frame: IngestFrame,
  format: string | null | undefined,
  query: ContentQuery,
): { readonly matches: boolean; readonly route: SearchRoute } {
  if (query.parts === null && format === null)
    return { matches: textDecoder.decode(frame.data).toLowerCase().includes(query.textLower), route: 'text' };
  if (query.parts !== null || !query.probe || !format || !RAW_STRING_FORMATS.has(format))
    return { matches: matchesRendered(frame, query), route: 'rendered' };
  const bytes = frame.data;
  // JSON's escapes make its raw text differ from its strings.
  if (format === 'json' && bytes.indexOf(0x5c) >= 0)
    return { matches: matchesRendered(frame, query), route: 'rendered' };
  const found = scanStrings(bytes, format as StringScanFormat, query);
  if (found === 'miss' || found === 'scan') return { matches: false, route: found };
  if (found === true) return { matches: true, route: 'scan' };
  return {
    matches: someStringHolds(
      new SpanIndex(bytes, walkers[format as FrameFormat], { depth: Infinity }),
      query.textLower,
    ),
    route: 'strings',
  };
}

/**
 * The fast route for CBOR, MessagePack and JSON without escapes: true when a hit lies in a
 * string; 'miss' (no raw hit) and 'scan' (hits, none in a string) mean no match; null when
 * only the frame's strings can tell.
 */
function scanStrings(bytes: Uint8Array, format: StringScanFormat, query: ContentQuery): true | 'miss' | 'scan' | null {
  const probe = query.probeBytes;
  if (!probe) return textDecoder.decode(bytes).toLowerCase().includes(query.probe) ? null : 'miss';
  const at = findAscii(bytes, probe, 0);
  if (at === -1) return rawMissIsFinal(bytes, format, query) ? 'miss' : null;
  const needle = query.needleBytes!;
  const first = needle === probe ? at : findAscii(bytes, needle, 0);
  const found = first === -1 ? false : hitInTextString(bytes, format, needle, first);
  if (found) return true;
  // A needle that may begin inside an escape the rendering adds (`\t`, `\u001f`) can match
  // without a raw hit of itself. JSON without backslashes has no such escape.
  const mayBeginInEscape = query.probe !== query.textLower && format !== 'json';
  if (found === null || mayBeginInEscape || !rawMissIsFinal(bytes, format, query)) return null;
  return first === -1 ? 'miss' : 'scan';
}

/**
 * Does the raw text hold `probe` (lowercase), case-insensitively? ASCII probes are matched on
 * the bytes (no string made): the same answer as lowercasing the decoded text, because the
 * only non-ASCII characters that lowercase to ASCII are U+0130 and U+212A, whose frames take
 * the decoding way.
 */
export function rawHolds(bytes: Uint8Array, probe: string): boolean {
  const ascii = asciiNeedle(probe);
  if (!ascii || hasAsciiLowering(bytes)) return textDecoder.decode(bytes).toLowerCase().includes(probe);
  return findAscii(bytes, ascii, 0) !== -1;
}

/**
 * Does no hit in the raw bytes mean no match? Not when a character that lowercases to ASCII
 * (U+0130, U+212A) is there, nor when CBOR's indefinite text joins chunks the bytes keep apart.
 */
function rawMissIsFinal(bytes: Uint8Array, format: StringScanFormat, query: ContentQuery): boolean {
  if (query.lowersFromNonAscii && hasAsciiLowering(bytes)) return false;
  return format !== 'cbor' || !hasIndefiniteText(bytes);
}

/** U+0130 (c4 b0) and U+212A (e2 84 aa) lowercase to ASCII letters. */
function hasAsciiLowering(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(0xc4); i >= 0; i = bytes.indexOf(0xc4, i + 1)) if (bytes[i + 1] === 0xb0) return true;
  for (let i = bytes.indexOf(0xe2); i >= 0; i = bytes.indexOf(0xe2, i + 1))
    if (bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa) return true;
  return false;
}

function someStringHolds(index: SpanIndex, needle: string): boolean {
  if (index.error) return false;
  const { kind } = index.store;
  // As rendered: JSON.stringify adds the escapes the rendering has (the needle holds no quote).
  for (let id = 0; id < index.store.size; id++)
    if (
      kind[id] === Kind.text &&
      JSON.stringify(String(index.value(id)))
        .toLowerCase()
        .includes(needle)
    )
      return true;
  return false;
}

/** The definition itself: the decoded value rendered as JSON. */
function matchesRendered(frame: IngestFrame, query: ContentQuery): boolean {
  const d = decodeFrame(frame.data, { isText: frame.opcode === 'text' });
  if (!d.index || d.index.root < 0)
    return query.parts === null && textDecoder.decode(frame.data).toLowerCase().includes(query.textLower);
  return indexMatches(d.index, query);
}

/** Does a frame read as `index` (a Protobuf schema's reading, say) match? The definition, on its JSON rendering. */
export function indexMatches(index: SpanIndex, query: ContentQuery): boolean {
  if (index.root < 0) return false;
  const value = index.value(index.root);
  const targets = query.parts ? resolvePath(value, query.parts) : [value];
  if (targets.length === 0) return false;
  if (!query.textLower) return true;
  return targets.some((t) => jsonText(t, Infinity, undefined).text.toLowerCase().includes(query.textLower));
}
