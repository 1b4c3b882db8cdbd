import { Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import { LebCursor, LebStop, lebWalker, type LebData } from '../protocols/leb-cursor.js';

/**
 * Automerge's binary framing, named without columnar decoding (automerge's
 * rust/automerge/src/sync.rs and storage/chunk.rs, change.rs, document.rs):
 * - a sync message: version byte 0x42 (v1) or 0x43 (v2), then LEB128-counted lists of
 *   32-byte hashes (heads, need), the haves (last sync hashes and a bloom filter), the
 *   changes (each a length-prefixed chunk) and, when bytes remain, the flags;
 * - a chunk (what `save()` writes, and each change): magic 85 6f 4a 83, a 4-byte checksum,
 *   the chunk type (0 document, 1 change, 2 compressed change, 3 bundle), the data length,
 *   then the data: a document's actors, heads and column sizes; a change's dependencies,
 *   actor, seq, start op, time, message, other actors and column sizes. Column contents
 *   stay bytes.
 * Every byte is a node's: lengths and counts are their list's head.
 */
export const AUTOMERGE_MAGIC = [0x85, 0x6f, 0x4a, 0x83] as const;
export const CHUNK_TYPES = ['document', 'change', 'compressed change', 'bundle'] as const;

export interface AutomergeChunk {
  readonly type: (typeof CHUNK_TYPES)[number];
  readonly checksum: string;
  readonly length: number;
  /** Document heads or a change's dependencies, as hex. */
  readonly heads?: readonly string[];
  readonly actor?: string;
  readonly seq?: number;
  readonly message?: string;
}

export interface AutomergeFrame {
  readonly kind: 'sync message' | 'chunks';
  readonly version?: 1 | 2;
  readonly heads?: readonly string[];
  readonly need?: readonly string[];
  readonly chunks: AutomergeChunk[];
}

interface AutomergeData extends LebData {
  frame: AutomergeFrame | null;
}

function automergeData(index: SpanIndex): AutomergeData | null {
  const data = index.formatData as AutomergeData | null;
  return data && 'frame' in data ? data : null;
}

/** What an Automerge frame holds (as far as it read), or null for another format's index. */
export function automergeFrame(index: SpanIndex): AutomergeFrame | null {
  return automergeData(index)?.frame ?? null;
}

/** True when the bytes open like an Automerge sync message or chunk. */
export function opensLikeAutomerge(bytes: Uint8Array): boolean {
  if (bytes.length >= 4 && AUTOMERGE_MAGIC.every((b, i) => bytes[i] === b)) return true;
  return bytes.length >= 5 && (bytes[0] === 0x42 || bytes[0] === 0x43);
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** A LEB128 count, then that many 32-byte hashes, as an array node. */
function hashes(cursor: LebCursor, parent: number, name: string): string[] {
  const start = cursor.pos;
  const n = cursor.uint(`the number of ${name}`);
  cursor.length(start, n * 32, name);
  const list = cursor.openAt(parent, name, Kind.array, start);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const h = cursor.bytes.slice(cursor.pos, cursor.pos + 32);
    cursor.leaf(list, null, cursor.pos, cursor.pos + 32, h, Kind.bytes);
    cursor.pos += 32;
    out.push(hex(h));
  }
  cursor.close(list);
  return out;
}

/** A LEB128 count, then that many length-prefixed byte strings (actor ids). */
function actors(cursor: LebCursor, parent: number, name: string): string[] {
  const start = cursor.pos;
  const n = cursor.length(start, cursor.uint(`the number of ${name}`), name);
  const list = cursor.openAt(parent, name, Kind.array, start);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(hex(cursor.bytesField(list, null, 'an actor id', false)));
  cursor.close(list);
  return out;
}

/** Column metadata: a count, then (spec, length) pairs. Returns the columns' total length. */
function columns(cursor: LebCursor, parent: number, name: string): number {
  const start = cursor.pos;
  const n = cursor.length(start, cursor.uint(`the number of ${name}`), name);
  const list = cursor.openAt(parent, name, Kind.array, start);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const col = cursor.openHere(list, null, Kind.map);
    const spec = cursor.uintField(col, 'spec', 'a column spec');
    const length = cursor.uintField(col, 'length', "a column's length");
    cursor.labels.set(col, `column ${spec >>> 4} type ${spec & 7}${spec & 8 ? ' deflated' : ''}: ${length} B`);
    total += length;
    cursor.close(col);
  }
  cursor.close(list);
  return total;
}

/** A signed LEB128 (a change's time in ms), as a leaf. */
function slebField(cursor: LebCursor, parent: number, name: string): number {
  const start = cursor.pos;
  let value = 0;
  let scale = 1;
  for (;;) {
    if (cursor.pos >= cursor.limit) cursor.cutOff(start, name);
    const b = cursor.bytes[cursor.pos++];
    value += (b & 0x7f) * scale;
    scale *= 128;
    if (b < 0x80) {
      if (b & 0x40) value -= scale;
      break;
    }
    if (cursor.pos - start >= 10) cursor.fail('invalid-varint', start, `${name}: a signed LEB128 longer than 10 bytes`);
  }
  cursor.leaf(parent, name, start, cursor.pos, value, value < 0 ? Kind.nint : Kind.uint);
  return value;
}

/** Raw bytes [pos, pos + n) as a leaf (column contents, compressed data). */
function rest(cursor: LebCursor, parent: number, name: string, n: number): void {
  cursor.length(cursor.pos, n, name);
  cursor.leaf(parent, name, cursor.pos, cursor.pos + n, cursor.bytes.slice(cursor.pos, cursor.pos + n), Kind.bytes);
  cursor.pos += n;
}

/** One chunk at the cursor (magic first) under `parent`, whose head is `headStart`..magic (a length prefix). */
function chunk(cursor: LebCursor, parent: number, headStart: number): AutomergeChunk {
  const { bytes } = cursor;
  const node = cursor.openAt(parent, null, Kind.map, headStart);
  const at = cursor.pos;
  if (cursor.limit - at < 4 || !AUTOMERGE_MAGIC.every((b, i) => bytes[at + i] === b))
    cursor.fail('invalid-byte', at, 'an Automerge chunk opens with the magic bytes 85 6f 4a 83');
  rest(cursor, node, 'magic', 4);
  if (cursor.limit - cursor.pos < 5) cursor.cutOff(cursor.pos, "the chunk's checksum and type");
  const checksum = hex(bytes.subarray(cursor.pos, cursor.pos + 4));
  rest(cursor, node, 'checksum', 4);
  const typeAt = cursor.pos;
  const type = CHUNK_TYPES[bytes[typeAt]];
  if (type === undefined) cursor.fail('invalid-byte', typeAt, `chunk type ${bytes[typeAt]}: Automerge defines 0–3`);
  cursor.pos++;
  cursor.named(node, 'chunkType', typeAt, type);
  const lengthAt = cursor.pos;
  const length = cursor.length(lengthAt, cursor.uintField(node, 'length', "the chunk's length"), 'the chunk');
  const result: { -readonly [K in keyof AutomergeChunk]: AutomergeChunk[K] } = { type, checksum, length };
  const data = cursor.openHere(node, 'data', Kind.map);
  cursor.within(lengthAt, length, `the ${type} chunk`, () => {
    if (type === 'document') {
      actors(cursor, data, 'actors');
      result.heads = hashes(cursor, data, 'heads');
      const changeBytes = columns(cursor, data, 'changeColumns');
      const opBytes = columns(cursor, data, 'opColumns');
      rest(cursor, data, 'changeData', changeBytes);
      rest(cursor, data, 'opData', opBytes);
      if (cursor.pos < cursor.limit) {
        const list = cursor.openHere(data, 'headIndices', Kind.array);
        while (cursor.pos < cursor.limit) cursor.uintField(list, null, 'a head index');
        cursor.close(list);
      }
    } else if (type === 'change') {
      result.heads = hashes(cursor, data, 'deps');
      result.actor = hex(cursor.bytesField(data, 'actor', 'the actor id', false));
      result.seq = cursor.uintField(data, 'seq');
      cursor.uintField(data, 'startOp');
      slebField(cursor, data, 'time');
      result.message = cursor.stringField(data, 'message', 'the change message', true).value;
      actors(cursor, data, 'otherActors');
      const opBytes = columns(cursor, data, 'opColumns');
      rest(cursor, data, 'opData', opBytes);
      if (cursor.pos < cursor.limit) rest(cursor, data, 'extra', cursor.limit - cursor.pos);
    } else rest(cursor, data, type === 'bundle' ? 'bundle' : 'deflated', cursor.limit - cursor.pos);
  });
  cursor.close(data);
  cursor.labels.set(
    node,
    `${type} chunk, ${length} B${result.actor ? ` by ${result.actor.slice(0, 8)}… seq ${result.seq}` : ''}`,
  );
  cursor.close(node);
  return result;
}

function walkFrame(index: SpanIndex): void {
  const cursor = new LebCursor(index);
  const data = index.formatData as AutomergeData;
  data.frame = null;
  const { bytes } = index;
  try {
    if (bytes[0] === 0x42 || bytes[0] === 0x43) {
      const version = bytes[0] === 0x42 ? 1 : 2;
      const root = cursor.openHere(-1, null, Kind.map);
      cursor.pos = 1;
      cursor.named(root, 'version', 0, `sync message v${version}`);
      const frame: AutomergeFrame = { kind: 'sync message', version, chunks: [] };
      data.frame = frame;
      const heads = hashes(cursor, root, 'heads');
      const need = hashes(cursor, root, 'need');
      data.frame = { ...frame, heads, need };
      const haveStart = cursor.pos;
      const nHave = cursor.length(haveStart, cursor.uint('the number of haves'), 'the haves');
      const haves = cursor.openAt(root, 'have', Kind.array, haveStart);
      for (let i = 0; i < nHave; i++) {
        const have = cursor.openHere(haves, null, Kind.map);
        hashes(cursor, have, 'lastSync');
        cursor.bytesField(have, 'bloom', 'a bloom filter', false);
        cursor.close(have);
      }
      cursor.close(haves);
      const changesStart = cursor.pos;
      const nChanges = cursor.length(changesStart, cursor.uint('the number of changes'), 'the changes');
      const list = cursor.openAt(root, 'changes', Kind.array, changesStart);
      for (let i = 0; i < nChanges; i++) {
        const start = cursor.pos;
        const n = cursor.uint("a change's length");
        cursor.within(start, n, 'a change', () => {
          data.frame!.chunks.push(chunk(cursor, list, start));
        });
      }
      cursor.close(list);
      if (cursor.pos < bytes.length) {
        const flags = cursor.bytesField(root, 'flags', 'the flags', false);
        // Old capability bytes (0x01 v1, 0x02 v2) or a bitfield byte (0x80 set): anything else is not automerge's.
        const bad = flags.findIndex((b) => b !== 1 && b !== 2 && b < 0x80);
        if (bad >= 0)
          cursor.fail(
            'invalid-byte',
            cursor.pos - flags.length + bad,
            `flag byte 0x${flags[bad].toString(16).padStart(2, '0')}: automerge writes 0x01, 0x02 or a bitfield byte (0x80 set)`,
          );
      }
      if (cursor.pos !== bytes.length) cursor.fail('trailing-bytes', cursor.pos, 'bytes after the sync message');
      cursor.close(root);
    } else {
      const root = cursor.openHere(-1, null, Kind.array);
      data.frame = { kind: 'chunks', chunks: [] };
      if (bytes.length === 0) cursor.fail('empty-input', 0, 'an empty frame is no Automerge chunk');
      while (cursor.pos < bytes.length) data.frame.chunks.push(chunk(cursor, root, cursor.pos));
      cursor.close(root);
    }
  } catch (e) {
    if (!(e instanceof LebStop)) throw e;
    cursor.stopped();
  }
}

const describeRoot = (index: SpanIndex): string => {
  const f = automergeFrame(index);
  if (!f) return 'automerge';
  if (f.kind === 'sync message') return `automerge sync message v${f.version}`;
  return f.chunks.length === 1 ? `automerge ${f.chunks[0].type} chunk` : `automerge ${f.chunks.length} chunks`;
};

export const automergeWalker: FormatWalker = lebWalker('automerge', walkFrame, describeRoot);
