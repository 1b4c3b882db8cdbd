import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import { firstReadingCount, isPrintableText, readingOfNonText, type LenReading } from './readings.js';
import { protobufData, type ProtobufData } from './data.js';
import { MAX_FIELD_NUMBER, readVarint, VARINT_TRUNCATED, varintValue, WireType } from './wire.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { protobufDescribe, protobufDetails, protobufLeafValue, protobufPreview } from './value.js';

export { protobufData, type ProtobufData } from './data.js';

/**
 * Protobuf without a schema, like `protoc --decode_raw` but with spans: a message is a `map`
 * whose keys are the fields' tag varints (`pb_tag`, argument = the raw tag) and whose values
 * are varints (`uint`), fixed 32/64-bit fields (`pb_i32`, `pb_i64`), groups (`pb_group`,
 * flagged as deprecated) and length-delimited fields read as a nested message (`map`),
 * text, bytes or packed varints (`array`), whichever fits best (readings.ts); a value's head
 * is its length varint. Only the top-level message must parse: any length-delimited payload
 * is valid as bytes, so levels below the recorded depth are not read at all.
 * Iterative (explicit frame stack); bounds-checked; errors carry the offset.
 */
export const protobufWalker: FormatWalker = {
  format: 'protobuf',
  walk: walkProtobuf,
  // Messages of records run at about 0.35 nodes per byte, text-heavy ones 0.1, a batch of
  // packed numbers next to nothing (its items are recorded when opened). Sized for 0.15, the
  // store grows once on dense frames (growFor extrapolates) and fresh memory is not spent on
  // sparse ones: measured against 0.4 and the generic guess, 0.15 was within 10 % of the best
  // on every bench frame (0.4: packed numbers 55 % slower; the generic guess: records 12 %).
  capacityHint: (bytes, depth) => (depth === Infinity && bytes.length > 512 ? Math.ceil(bytes.length * 0.15) + 8 : undefined),
  leafValue: protobufLeafValue,
  describe: protobufDescribe,
  preview: protobufPreview,
  details: protobufDetails,
};

/** One open message or group on the walk's stack. */
interface Frame {
  /** Its node, or -1 when it is below the recorded depth (groups are still read to find their end). */
  readonly node: number;
  /** Where its fields must end (a message), or the enclosing limit (a group). */
  readonly limit: number;
  /** Levels still recorded below its node. */
  readonly depth: number;
  /** A group's field number (its end tag must match), or -1 for a message. */
  readonly groupField: number;
  prev: number;
  entries: number;
  /**
   * A length-delimited field read as a message on trust: walking it is how it is checked (a
   * separate scan read every field twice). If its fields do not parse to its end, the walk
   * takes back what it recorded below it and reads it as packed, text or bytes instead.
   */
  readonly speculative: boolean;
  /** index.warnings.length when it opened (its warnings go if it is taken back). */
  readonly warnMark: number;
}

/**
 * A field that does not parse: if the innermost message being read (groups are part of it)
 * was only a speculative reading, it is taken back and the walk resumes after it (returns
 * that position); otherwise -1, and the caller records the error with `fail`. Asked before
 * the error's message is built: speculation fails often.
 */
function recover(index: SpanIndex, frames: Frame[]): number {
  let i = frames.length - 1;
  while (i > 0 && frames[i].groupField >= 0) i--;
  if (!frames[i].speculative) return -1;
  const taken = frames[i];
  while (frames.length > i) frames.pop();
  takeBack(index, taken);
  return taken.limit;
}

/** Records a fatal error: open nodes are incomplete and reach at least to their last child and the failing byte. */
function fail(index: SpanIndex, frames: readonly Frame[], code: Parameters<SpanIndex['fail']>[0], at: number, message: string): void {
  const { bytes, store } = index;
  index.fail(code, at, message);
  for (const f of frames) {
    if (f.node < 0) continue;
    store.addFlags(f.node, Flag.incomplete);
    store.setArg(f.node, f.entries);
    const lastEnd = f.prev >= 0 ? store.end[f.prev] : store.start[f.node];
    if (store.end[f.node] < Math.max(lastEnd, at)) store.setEnd(f.node, Math.min(bytes.length, Math.max(lastEnd, at)));
  }
}

function walkProtobuf(index: SpanIndex, node: number, depth: number): void {
  const firstWarning = index.warnings.length;
  walkFields(index, node, depth);
  groupWarningMessages(index, firstWarning);
}

/** Writes the messages of the group warnings the walk kept (it leaves them empty while it may take them back). */
function groupWarningMessages(index: SpanIndex, from: number): void {
  const { warnings, bytes } = index;
  for (let i = from; i < warnings.length; i++) {
    const w = warnings[i];
    if (w.code !== 'deprecated-group' || w.message) continue;
    readVarint(bytes, w.offset, bytes.length);
    const field = Math.floor(varintValue / 8);
    warnings[i] = { ...w, message: `field ${field} is a group (wire types 3/4, deprecated) at byte ${w.offset}` };
  }
}

function walkFields(index: SpanIndex, node: number, depth: number): void {
  const { bytes, store } = index;
  const frames: Frame[] = [];
  let pos: number;
  if (node < 0) {
    const root = store.add(Kind.map, 0, 0, 0, -1, -1);
    store.setEnd(root, bytes.length);
    if (depth >= 1) store.addFlags(root, Flag.expanded);
    frames.push({ node: root, limit: bytes.length, depth, groupField: -1, prev: -1, entries: 0, speculative: false, warnMark: 0 });
    pos = 0;
  } else {
    const kind = store.kind[node];
    const start = store.start[node] + store.head[node];
    if (kind === Kind.array) {
      store.addFlags(node, Flag.expanded);
      recordPackedIfWhole(index, node, start, store.end[node]);
      return;
    }
    if (kind !== Kind.map && kind !== Kind.pb_group) return;
    store.addFlags(node, Flag.expanded);
    const isGroup = kind === Kind.pb_group;
    const end = isGroup ? (protobufData(index).groupEnd.get(node) ?? store.end[node]) : store.end[node];
    frames.push({ node, limit: end, depth, groupField: -1, prev: -1, entries: 0, speculative: false, warnMark: 0 });
    pos = start;
  }

  let resume: number;

  for (;;) {
    const top = frames[frames.length - 1];
    if (top.groupField < 0 && pos >= top.limit) {
      // A message is complete.
      if (top.node >= 0) store.setArg(top.node, top.entries);
      frames.pop();
      if (!frames.length) return;
      continue;
    }
    if (pos >= top.limit) {
      if ((resume = recover(index, frames)) >= 0) {
        pos = resume;
        continue;
      }
      fail(index, frames, 'truncated', pos, `unexpected end of input: group (field ${top.groupField}) has no end tag`);
      return;
    }
    const tagStart = pos;
    // One-byte varints (tags of fields 1-15, small values, short lengths) without the call.
    let tag = bytes[pos];
    let afterTag = pos + 1;
    if (tag >= 0x80) {
      afterTag = readVarint(bytes, pos, top.limit);
      if (afterTag < 0) {
        if ((resume = recover(index, frames)) >= 0) {
          pos = resume;
          continue;
        }
        if (afterTag === VARINT_TRUNCATED) fail(index, frames, 'truncated', top.limit, 'unexpected end of input inside a field tag');
        else fail(index, frames, 'invalid-varint', tagStart, 'field tag varint longer than 10 bytes');
        return;
      }
      tag = varintValue;
    }
    const field = tag < 0x80000000 ? tag >>> 3 : Math.floor(tag / 8);
    const wt = tag & 7;
    if (field === 0) {
      if ((resume = recover(index, frames)) >= 0) {
        pos = resume;
        continue;
      }
      fail(index, frames, 'invalid-tag', tagStart, 'field number 0 is not allowed');
      return;
    }
    if (field > MAX_FIELD_NUMBER) {
      if ((resume = recover(index, frames)) >= 0) {
        pos = resume;
        continue;
      }
      fail(index, frames, 'invalid-tag', tagStart, `field number ${field} is above 2^29 - 1`);
      return;
    }
    const record = top.node >= 0 && top.depth >= 1;
    pos = afterTag;

    if (wt === WireType.endGroup) {
      if (top.groupField !== field) {
        if ((resume = recover(index, frames)) >= 0) {
          pos = resume;
          continue;
        }
        fail(index, frames, 'unmatched-end-group', tagStart, top.groupField < 0 ? `end-group tag for field ${field} without a start-group tag` : `end-group tag for field ${field} inside the group of field ${top.groupField}`);
        return;
      }
      if (top.node >= 0) {
        protobufData(index).groupEnd.set(top.node, tagStart);
        store.setEnd(top.node, pos);
        store.setArg(top.node, top.entries);
      }
      frames.pop();
      continue;
    }

    const key = record ? addNode(store, Kind.pb_tag, tagStart, afterTag, 0, tag, top.node, top.prev, Flag.key) : -1;
    let value = -1;
    switch (wt) {
      case WireType.varint: {
        let next = pos + 1;
        let n = bytes[pos];
        if (!(pos < top.limit && n < 0x80)) {
          next = readVarint(bytes, pos, top.limit);
          if (next < 0) {
            if ((resume = recover(index, frames)) >= 0) {
              pos = resume;
              continue;
            }
            if (next === VARINT_TRUNCATED) fail(index, frames, 'truncated', top.limit, `unexpected end of input inside the varint of field ${field}`);
            else fail(index, frames, 'invalid-varint', pos, `varint of field ${field} longer than 10 bytes`);
            return;
          }
          n = varintValue;
        }
        if (record) value = addNode(store, Kind.uint, pos, next, 0, n, top.node, key, 0);
        pos = next;
        break;
      }
      case WireType.i64:
      case WireType.i32: {
        const size = wt === WireType.i64 ? 8 : 4;
        if (top.limit - pos < size) {
          if ((resume = recover(index, frames)) >= 0) {
            pos = resume;
            continue;
          }
          fail(index, frames, 'truncated', top.limit, `unexpected end of input: field ${field} needs ${size} bytes, ${top.limit - pos} remain`);
          return;
        }
        if (record) value = addNode(store, wt === WireType.i64 ? Kind.pb_i64 : Kind.pb_i32, pos, pos + size, 0, 0, top.node, key, 0);
        pos += size;
        break;
      }
      case WireType.len: {
        let payload = pos + 1;
        let length = bytes[pos];
        if (!(pos < top.limit && length < 0x80)) {
          payload = readVarint(bytes, pos, top.limit);
          if (payload < 0) {
            if ((resume = recover(index, frames)) >= 0) {
              pos = resume;
              continue;
            }
            if (payload === VARINT_TRUNCATED) fail(index, frames, 'truncated', top.limit, `unexpected end of input inside the length of field ${field}`);
            else fail(index, frames, 'invalid-varint', pos, `length of field ${field} longer than 10 bytes`);
            return;
          }
          length = varintValue;
        }
        if (length > top.limit - payload) {
          if ((resume = recover(index, frames)) >= 0) {
            pos = resume;
            continue;
          }
          fail(index, frames, 'length-exceeds-input', pos, `field ${field} declares ${length} bytes, ${top.limit - payload} remain`);
          return;
        }
        const end = payload + length;
        if (record) {
          // The readings in firstReading's order, each looked at once: text, then a message.
          if (end === payload) value = addNode(store, Kind.bytes, pos, end, payload - pos, 0, top.node, key, 0);
          else if (isPrintableText(bytes, payload, end)) value = addNode(store, Kind.text, pos, end, payload - pos, length, top.node, key, 0);
          else if (top.depth >= 2 && !plausibleFirstTag(bytes[payload])) {
            // Bytes that cannot start a message, or start with a (deprecated) group: ranked by
            // a scan rather than taken on trust, and walked if they are a message after all.
            const reading = readingOfNonText(bytes, payload, end);
            value = addNode(store, READING_KIND[reading], pos, end, payload - pos, firstReadingCount, top.node, key, reading === 'message' ? Flag.expanded : 0);
            if (reading === 'message') {
              top.prev = value;
              top.entries++;
              frames.push({ node: value, limit: end, depth: top.depth - 1, groupField: -1, prev: -1, entries: 0, speculative: false, warnMark: 0 });
              pos = payload;
              continue;
            }
          } else if (top.depth >= 2) {
            // Read as a message on trust (see Frame.speculative).
            value = addNode(store, Kind.map, pos, end, payload - pos, 0, top.node, key, Flag.expanded);
            top.prev = value;
            top.entries++;
            frames.push({ node: value, limit: end, depth: top.depth - 1, groupField: -1, prev: -1, entries: 0, speculative: true, warnMark: index.warnings.length });
            pos = payload;
            continue;
          } else {
            // Not descended into (depth 1): ranked without recording what is below.
            const reading = readingOfNonText(bytes, payload, end);
            value = addNode(store, READING_KIND[reading], pos, end, payload - pos, firstReadingCount, top.node, key, 0);
          }
        }
        pos = end;
        break;
      }
      case WireType.startGroup: {
        // Its message is written when the walk ends (groupWarningMessages): a group read inside
        // a message taken on trust is usually noise in bytes that are not a message at all.
        index.warn({ code: 'deprecated-group', offset: tagStart, message: '', node: key });
        if (record) {
          value = store.add(Kind.pb_group, pos, 0, 0, top.node, key);
          store.setEnd(value, pos);
          if (top.depth >= 2) store.addFlags(value, Flag.expanded);
          top.prev = value;
        }
        top.entries++;
        frames.push({ node: value, limit: top.limit, depth: record ? top.depth - 1 : 0, groupField: field, prev: -1, entries: 0, speculative: false, warnMark: 0 });
        continue;
      }
      default:
        if ((resume = recover(index, frames)) >= 0) {
          pos = resume;
          continue;
        }
        fail(index, frames, 'invalid-wire-type', tagStart, `field ${field} has wire type ${wt}, which does not exist`);
        return;
    }
    if (record) top.prev = value;
    top.entries++;
  }
}

/**
 * Takes back a speculative message reading whose fields did not parse to its end: the nodes
 * recorded below it go (their slots zeroed, as fresh slab memory is), and so do their warnings
 * and group ends; the field is read as the next reading that fits (as firstReading would).
 */
function takeBack(index: SpanIndex, taken: Frame): void {
  const { bytes, store } = index;
  const node = taken.node;
  const mark = node + 1;
  const flagsAt = store.u8At + store.cap;
  store.slabU8.fill(0, flagsAt + mark, flagsAt + store.size);
  store.size = mark;
  store.slabU8[flagsAt + node] &= ~Flag.expanded;
  store.slabI32[store.i32At + 3 * store.cap + node] = -1; // firstChild
  if (index.warnings.length > taken.warnMark) index.warnings.length = taken.warnMark;
  const data = index.formatData as ProtobufData | null;
  if (data?.groupEnd.size) for (const id of data.groupEnd.keys()) if (id >= mark) data.groupEnd.delete(id);
  const start = store.slabI32[store.i32At + node] + store.slabU8[store.u8At + 2 * store.cap + node];
  const end = taken.limit;
  const items = packedCount(bytes, start, end);
  if (items > 0) {
    // Validated here; its items are recorded when the node is first expanded (walkProtobuf's
    // `Kind.array` case), as below a depth limit: a packed field is the densest thing a frame
    // holds (a node per one to three bytes), and most are never opened.
    store.slabU8[store.u8At + node] = Kind.array;
    store.setArg(node, items);
  } else {
    store.slabU8[store.u8At + node] = findInvalidUtf8(bytes, start, end) < 0 ? Kind.text : Kind.bytes;
    store.setArg(node, end - start);
  }
}

/**
 * Records bytes[start, end) as packed varints under `node` and returns how many, when the
 * run is whole; otherwise records nothing and returns -1. A first pass counts the varints
 * (a varint ends at each byte below 0x80) and checks that the run is whole; the second
 * writes the items straight into the store, which is grown once beforehand: a packed field
 * is the densest thing a frame holds (a node per one to three bytes).
 */
function recordPackedIfWhole(index: SpanIndex, node: number, start: number, end: number): number {
  const { bytes, store } = index;
  const count = packedCount(bytes, start, end);
  if (count <= 0) return -1;
  if (store.size + count > store.cap) store.grow(Math.max(store.size + count + (store.cap >> 2), store.cap));
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const f64 = store.slabF64;
  const first = store.size;
  const i32At = store.i32At;
  const u8At = store.u8At;
  const f64At = store.f64At;
  let pos = start;
  for (let id = first; id < first + count; id++) {
    let next = pos + 1;
    let value = bytes[pos];
    if (value >= 0x80) {
      next = readVarint(bytes, pos, end); // whole: packedCount checked the run
      value = varintValue;
    }
    const i = i32At + id;
    u8[u8At + id] = Kind.uint;
    u8[u8At + c + id] = 0; // flags
    u8[u8At + 2 * c + id] = 0; // head (the slot may have held a taken-back node)
    i32[i] = pos;
    i32[i + c] = next;
    i32[i + 2 * c] = node;
    i32[i + 3 * c] = -1;
    i32[i + 4 * c] = id + 1;
    f64[f64At + id] = value;
    pos = next;
  }
  i32[i32At + 4 * c + first + count - 1] = -1;
  i32[i32At + 3 * c + node] = first; // firstChild
  store.size = first + count;
  return count;
}

/** How many varints bytes[start, end) holds if it is a run of whole ones, else -1 (as countPackedVarints). */
function packedCount(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start || bytes[end - 1] >= 0x80) return -1;
  let n = 0;
  let run = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b < 0x80) {
      if (run === 9 && b > 1) return -1;
      n++;
      run = 0;
    } else if (++run >= 10) return -1;
  }
  return n;
}

/**
 * `store.add` with the end and flags written in the same call (a field is two nodes, and
 * add + setEnd + addFlags per node was a fifth of the walk). Not json/walker.ts's
 * `recordNode`: that one skips zero writes on fresh slots, while this walker takes nodes
 * back and reuses their slots, so it writes every field. (A shared SpanStore method was
 * tried: the JSON mesh index went from 0.98x to 1.80x, so each walker keeps its own.)
 */
function addNode(store: SpanStore, kind: number, start: number, end: number, head: number, arg: number, parent: number, prev: number, flags: number): number {
  if (store.size === store.cap) store.growFor(start);
  const id = store.size++;
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const i = store.i32At + id;
  const b = store.u8At + id;
  u8[b] = kind;
  u8[b + c] = flags;
  u8[b + 2 * c] = head;
  i32[i] = start;
  i32[i + c] = end;
  i32[i + 2 * c] = parent;
  i32[i + 3 * c] = -1;
  i32[i + 4 * c] = -1;
  store.slabF64[store.f64At + id] = arg;
  if (prev >= 0) i32[store.i32At + 4 * c + prev] = id;
  else if (parent >= 0) i32[store.i32At + 3 * c + parent] = id;
  return id;
}

/**
 * Whether a payload's first byte may start a message read on trust: a field number other
 * than 0 and a wire type that opens a field (varint, i64, len, i32). Random bytes fail this
 * about half the time, and are then ranked by a scan instead of walked and taken back.
 */
function plausibleFirstTag(b: number): boolean {
  const wt = b & 7;
  return b >= 8 && (wt <= 2 || wt === 5);
}

const READING_KIND: Record<LenReading, number> = { message: Kind.map, text: Kind.text, bytes: Kind.bytes, packed: Kind.array };
