import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import { lenReadings, type LenReading } from './readings.js';
import { MAX_FIELD_NUMBER, readVarint, VARINT_TRUNCATED, varintValue, WireType } from './wire.js';
import { protobufDescribe, protobufDetails, protobufLeafValue, protobufPreview } from './value.js';

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
export interface ProtobufData {
  /** Length-delimited nodes: the readings that fit, best first (the node shows the first). */
  readonly readings: Map<number, readonly LenReading[]>;
  /** Group nodes: where the end-group tag starts (their fields end there). */
  readonly groupEnd: Map<number, number>;
}

export function protobufData(index: SpanIndex): ProtobufData {
  if (!index.formatData) index.formatData = { readings: new Map(), groupEnd: new Map() } satisfies ProtobufData;
  return index.formatData as ProtobufData;
}

export const protobufWalker: FormatWalker = {
  format: 'protobuf',
  walk: walkProtobuf,
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
}

function walkProtobuf(index: SpanIndex, node: number, depth: number): void {
  const { bytes, store } = index;
  const data = protobufData(index);
  const frames: Frame[] = [];
  let pos: number;
  if (node < 0) {
    const root = store.add(Kind.map, 0, 0, 0, -1, -1);
    store.setEnd(root, bytes.length);
    if (depth >= 1) store.addFlags(root, Flag.expanded);
    frames.push({ node: root, limit: bytes.length, depth, groupField: -1, prev: -1, entries: 0 });
    pos = 0;
  } else {
    const kind = store.kind[node];
    const start = store.start[node] + store.head[node];
    if (kind === Kind.array) {
      recordPacked(index, node, start, store.end[node]);
      return;
    }
    if (kind !== Kind.map && kind !== Kind.pb_group) return;
    store.addFlags(node, Flag.expanded);
    const isGroup = kind === Kind.pb_group;
    const end = isGroup ? (data.groupEnd.get(node) ?? store.end[node]) : store.end[node];
    frames.push({ node, limit: end, depth, groupField: -1, prev: -1, entries: 0 });
    pos = start;
  }

  const fail = (code: Parameters<SpanIndex['fail']>[0], at: number, message: string): void => {
    index.fail(code, at, message);
    // Open nodes are incomplete and reach at least to their last child and the failing byte.
    for (const f of frames) {
      if (f.node < 0) continue;
      store.addFlags(f.node, Flag.incomplete);
      store.setArg(f.node, f.entries);
      const lastEnd = f.prev >= 0 ? store.end[f.prev] : store.start[f.node];
      if (store.end[f.node] < Math.max(lastEnd, at)) store.setEnd(f.node, Math.min(bytes.length, Math.max(lastEnd, at)));
    }
  };

  for (;;) {
    const top = frames[frames.length - 1];
    if (top.groupField < 0 && pos >= top.limit) {
      // A message is complete.
      if (top.node >= 0) store.setArg(top.node, top.entries);
      frames.pop();
      if (!frames.length) return;
      continue;
    }
    if (pos >= top.limit) return fail('truncated', pos, `unexpected end of input: group (field ${top.groupField}) has no end tag`);
    const tagStart = pos;
    const afterTag = readVarint(bytes, pos, top.limit);
    if (afterTag < 0) {
      return afterTag === VARINT_TRUNCATED
        ? fail('truncated', top.limit, 'unexpected end of input inside a field tag')
        : fail('invalid-varint', tagStart, 'field tag varint longer than 10 bytes');
    }
    const tag = varintValue;
    const field = Math.floor(tag / 8);
    const wt = tag % 8;
    if (field === 0) return fail('invalid-tag', tagStart, 'field number 0 is not allowed');
    if (field > MAX_FIELD_NUMBER) return fail('invalid-tag', tagStart, `field number ${field} is above 2^29 - 1`);
    const record = top.node >= 0 && top.depth >= 1;
    pos = afterTag;

    if (wt === WireType.endGroup) {
      if (top.groupField !== field) return fail('unmatched-end-group', tagStart, top.groupField < 0 ? `end-group tag for field ${field} without a start-group tag` : `end-group tag for field ${field} inside the group of field ${top.groupField}`);
      if (top.node >= 0) {
        data.groupEnd.set(top.node, tagStart);
        store.setEnd(top.node, pos);
        store.setArg(top.node, top.entries);
      }
      frames.pop();
      continue;
    }

    let key = -1;
    if (record) key = store.add(Kind.pb_tag, tagStart, 0, tag, top.node, top.prev);
    if (key >= 0) {
      store.addFlags(key, Flag.key);
      store.setEnd(key, afterTag);
    }
    let value = -1;
    switch (wt) {
      case WireType.varint: {
        const next = readVarint(bytes, pos, top.limit);
        if (next < 0) return next === VARINT_TRUNCATED ? fail('truncated', top.limit, `unexpected end of input inside the varint of field ${field}`) : fail('invalid-varint', pos, `varint of field ${field} longer than 10 bytes`);
        if (record) {
          value = store.add(Kind.uint, pos, 0, varintValue, top.node, key);
          store.setEnd(value, next);
        }
        pos = next;
        break;
      }
      case WireType.i64:
      case WireType.i32: {
        const size = wt === WireType.i64 ? 8 : 4;
        if (top.limit - pos < size) return fail('truncated', top.limit, `unexpected end of input: field ${field} needs ${size} bytes, ${top.limit - pos} remain`);
        if (record) {
          value = store.add(wt === WireType.i64 ? Kind.pb_i64 : Kind.pb_i32, pos, 0, 0, top.node, key);
          store.setEnd(value, pos + size);
        }
        pos += size;
        break;
      }
      case WireType.len: {
        const payload = readVarint(bytes, pos, top.limit);
        if (payload < 0) return payload === VARINT_TRUNCATED ? fail('truncated', top.limit, `unexpected end of input inside the length of field ${field}`) : fail('invalid-varint', pos, `length of field ${field} longer than 10 bytes`);
        const length = varintValue;
        if (length > top.limit - payload) return fail('length-exceeds-input', pos, `field ${field} declares ${length} bytes, ${top.limit - payload} remain`);
        const end = payload + length;
        if (record) {
          const r = lenReadings(bytes, payload, end);
          const kind = READING_KIND[r.readings[0]];
          value = store.add(kind, pos, payload - pos, r.count, top.node, key);
          store.setEnd(value, end);
          data.readings.set(value, r.readings);
          if (r.readings[0] === 'message' && top.depth >= 2) {
            store.addFlags(value, Flag.expanded);
            top.prev = value;
            top.entries++;
            frames.push({ node: value, limit: end, depth: top.depth - 1, groupField: -1, prev: -1, entries: 0 });
            pos = payload;
            continue;
          }
          if (r.readings[0] === 'packed' && top.depth >= 2) recordPacked(index, value, payload, end);
        }
        pos = end;
        break;
      }
      case WireType.startGroup: {
        index.warn({ code: 'deprecated-group', offset: tagStart, message: `field ${field} is a group (wire types 3/4, deprecated) at byte ${tagStart}`, node: key });
        if (record) {
          value = store.add(Kind.pb_group, pos, 0, 0, top.node, key);
          store.setEnd(value, pos);
          if (top.depth >= 2) store.addFlags(value, Flag.expanded);
          top.prev = value;
        }
        top.entries++;
        frames.push({ node: value, limit: top.limit, depth: record ? top.depth - 1 : 0, groupField: field, prev: -1, entries: 0 });
        continue;
      }
      default:
        return fail('invalid-wire-type', tagStart, `field ${field} has wire type ${wt}, which does not exist`);
    }
    if (record) top.prev = value;
    top.entries++;
  }
}

const READING_KIND: Record<LenReading, number> = { message: Kind.map, text: Kind.text, bytes: Kind.bytes, packed: Kind.array };

/** Records a packed field's varints as the array's children. */
function recordPacked(index: SpanIndex, node: number, start: number, end: number): void {
  const { bytes, store } = index;
  store.addFlags(node, Flag.expanded);
  let prev = -1;
  let pos = start;
  while (pos < end) {
    const next = readVarint(bytes, pos, end);
    if (next < 0) return; // the reading was chosen because the run is whole
    const id = store.add(Kind.uint, pos, 0, varintValue, node, prev);
    store.setEnd(id, next);
    prev = id;
    pos = next;
  }
}
