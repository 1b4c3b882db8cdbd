import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import { firstReadingCount, isPrintableTextIn, readingOfNonText, type LenReading } from './readings.js';
import { protobufData, type ProtobufData } from './data.js';
import { countPackedVarints, MAX_FIELD_NUMBER, readVarint, VARINT_TRUNCATED, varintValue, WireType } from './wire.js';
import { byteView, findInvalidUtf8 } from '../core/utf8.js';
import { protobufDescribe, protobufDetails, protobufLeafValue, protobufPreview } from './value.js';
import { grouped } from '../core/grouped.js';

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
  // packed numbers next to nothing (its items are recorded when opened): no guess fits all.
  // So a large frame starts with at most HINT_MAX nodes, carved from the shared slab, and
  // the store grows once, to what the density of those first fields says (growStore).
  // A small frame gets 0.35 nodes per byte, what records have: the generic guess (a node per
  // byte up to 128 bytes) left most of the store unused, and `trim` giving it back was a
  // sixth of indexing a 100-byte record.
  capacityHint: (bytes, depth) =>
    depth !== Infinity
      ? undefined
      : bytes.length > 512
        ? Math.min(Math.ceil(bytes.length * 0.15) + 8, HINT_MAX)
        : Math.ceil(bytes.length * 0.35) + 4,
  leafValue: protobufLeafValue,
  describe: protobufDescribe,
  preview: protobufPreview,
  details: protobufDetails,
};

/**
 * Payloads up to this many bytes are scanned before they are walked as a message, not read
 * on trust: taking back a failed reading (a hash, an id, random bytes fail after a field or
 * two) cost more than reading a short message twice (the scan reads only its top-level
 * fields). Measured: 300 fields of 20 or 32 random bytes 0.75-0.82x of scanning up to 16
 * bytes only; the bench records (8 random bytes and an 18-byte message each) within 3 %
 * from 16 to 40, and 1.2-1.4x of that with every payload read on trust.
 */
const SCAN_FIRST = 32;

/** 512 nodes are just under span-store's 16 KiB slab carve (31 bytes a node). */
const HINT_MAX = 512;

/**
 * The walk's stack of open messages and groups, FRAME numbers per frame in one array
 * (module-level and reused: a walk is never re-entered, and an object per nested message
 * cost more than its fields). The top frame lives in walkFields' locals while its fields are
 * read, and is written here only when a frame opens above it or an error needs the stack.
 */
const FRAME = 8;
/** Its node, or -1 when it is below the recorded depth (groups are still read to find their end). */
const F_NODE = 0;
/** Where its fields must end (a message), or the enclosing limit (a group). */
const F_LIMIT = 1;
/** Levels still recorded below its node (capped at DEEP, which nesting never comes near). */
const F_DEPTH = 2;
/** A group's field number (its end tag must match), or -1 for a message. */
const F_GROUP = 3;
/** Its last child node, or -1. */
const F_PREV = 4;
/** Its fields so far. */
const F_ENTRIES = 5;
/**
 * 1 for a length-delimited field read as a message on trust: walking it is how it is
 * checked (a separate scan read every field twice). If its fields do not parse to its end,
 * the walk takes back what it recorded below it and reads it as packed, text or bytes.
 */
const F_SPECULATIVE = 6;
/** index.warnings.length when it opened (its warnings go if it is taken back). */
const F_WARN_MARK = 7;
const DEEP = 0x3fffffff;
const stack: number[] = [];
/** Stack entries kept between walks (512 levels of nesting). */
const STACK_KEPT = 512 * FRAME;

/** Why a field does not parse (walkFields records one, then asks `recover`). */
// biome-ignore lint/suspicious/noConstEnum: inlined by the bundler into the hot path; never exported
const enum Bad {
  groupUnended = 1,
  tagTruncated,
  tagTooLong,
  fieldZero,
  fieldTooBig,
  unmatchedEndGroup,
  varintTruncated,
  varintTooLong,
  fixedTruncated,
  lengthTruncated,
  lengthTooLong,
  lengthExceeds,
  wireType,
}

/**
 * A field that does not parse: if the innermost message being read (groups are part of it)
 * was only a speculative reading, it is taken back and the walk resumes after it: returns
 * the stack's new height (the taken frame's parent on top) and sets `resumeAt`. Otherwise
 * -1, and the caller records the error with `fail`. Asked before the error's message is
 * built: speculation fails often.
 */
function recover(index: SpanIndex, height: number): number {
  let i = height - 1;
  while (i > 0 && stack[i * FRAME + F_GROUP] >= 0) i--;
  const at = i * FRAME;
  if (!stack[at + F_SPECULATIVE]) return -1;
  takeBack(index, stack[at + F_NODE], stack[at + F_LIMIT], stack[at + F_WARN_MARK]);
  resumeAt = stack[at + F_LIMIT];
  return i;
}
let resumeAt = 0;

/**
 * Records a fatal error: open nodes are incomplete and reach at least to their last child,
 * the failing byte and `read` (where the walk got to: the failing field's tag is read, and
 * recorded when its level is), whether or not their children are recorded.
 */
function fail(
  index: SpanIndex,
  height: number,
  code: Parameters<SpanIndex['fail']>[0],
  at: number,
  message: string,
  read: number,
): void {
  const { bytes, store } = index;
  index.fail(code, at, message);
  // Innermost first: a frame's last child may be the frame above it, whose end is set first.
  for (let f = (height - 1) * FRAME; f >= 0; f -= FRAME) {
    const node = stack[f + F_NODE];
    if (node < 0) continue;
    store.addFlags(node, Flag.incomplete);
    store.setArg(node, stack[f + F_ENTRIES]);
    // From the store, not F_PREV: the top frame's may be stale (the failing field's tag is recorded).
    let lastEnd = store.start[node];
    for (let c = store.firstChild[node]; c >= 0; c = store.nextSibling[c]) lastEnd = store.end[c];
    const reach = Math.min(bytes.length, Math.max(lastEnd, at, read));
    if (store.end[node] < reach) store.setEnd(node, reach);
  }
}

/** The error `fail` records for a field that does not parse (see Bad). */
function failField(
  index: SpanIndex,
  height: number,
  bad: Bad,
  tagStart: number,
  pos: number,
  limit: number,
  field: number,
  wireType: number,
  group: number,
  length: number,
): void {
  switch (bad) {
    case Bad.groupUnended:
      return fail(
        index,
        height,
        'truncated',
        pos,
        `unexpected end of input: group (field ${group}) has no end tag`,
        pos,
      );
    case Bad.tagTruncated:
      return fail(index, height, 'truncated', limit, 'unexpected end of input inside a field tag', pos);
    case Bad.tagTooLong:
      return fail(index, height, 'invalid-varint', tagStart, 'field tag varint longer than 10 bytes', pos);
    case Bad.fieldZero:
      return fail(index, height, 'invalid-tag', tagStart, 'field number 0 is not allowed', pos);
    case Bad.fieldTooBig:
      return fail(index, height, 'invalid-tag', tagStart, `field number ${field} is above 2^29 - 1`, pos);
    case Bad.unmatchedEndGroup:
      return fail(
        index,
        height,
        'unmatched-end-group',
        tagStart,
        group < 0
          ? `end-group tag for field ${field} without a start-group tag`
          : `end-group tag for field ${field} inside the group of field ${group}`,
        pos,
      );
    case Bad.varintTruncated:
      return fail(
        index,
        height,
        'truncated',
        limit,
        `unexpected end of input inside the varint of field ${field}`,
        pos,
      );
    case Bad.varintTooLong:
      return fail(index, height, 'invalid-varint', pos, `varint of field ${field} longer than 10 bytes`, pos);
    case Bad.fixedTruncated: {
      const size = wireType === WireType.i64 ? 8 : 4;
      return fail(
        index,
        height,
        'truncated',
        limit,
        `unexpected end of input: field ${field} needs ${grouped(size)} bytes, ${grouped(limit - pos)} remain`,
        pos,
      );
    }
    case Bad.lengthTruncated:
      return fail(
        index,
        height,
        'truncated',
        limit,
        `unexpected end of input inside the length of field ${field}`,
        pos,
      );
    case Bad.lengthTooLong:
      return fail(index, height, 'invalid-varint', pos, `length of field ${field} longer than 10 bytes`, pos);
    case Bad.lengthExceeds: {
      const payload = readVarint(index.bytes, pos, limit);
      return fail(
        index,
        height,
        'length-exceeds-input',
        pos,
        `field ${field} declares ${grouped(length)} bytes, ${grouped(limit - payload)} remain`,
        pos,
      );
    }
    case Bad.wireType:
      return fail(
        index,
        height,
        'invalid-wire-type',
        tagStart,
        `field ${field} has wire type ${wireType}, which does not exist`,
        pos,
      );
  }
}

function walkProtobuf(index: SpanIndex, node: number, depth: number): void {
  const firstWarning = index.warnings.length;
  walkFields(index, node, depth);
  // A deeply nested frame (hostile: two bytes a level) does not leave its stack behind.
  if (stack.length > STACK_KEPT) stack.length = 0;
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
  // One DataView per walk for the text check's 8-byte steps on long strings, made at the
  // first that starts printable (one per string was 8 % of a walk; one per walk, 6 % of a
  // small frame's, whose only long payload is a message).
  let view: DataView | null = null;
  let pos: number;
  // The top frame (see FRAME), in locals.
  let fNode: number;
  let fLimit: number;
  let fDepth = Math.min(depth, DEEP);
  let fGroup = -1;
  let fPrev = -1;
  let fEntries = 0;
  let fSpeculative = 0;
  let fWarnMark = 0;
  if (node < 0) {
    fNode = store.add(Kind.map, 0, 0, 0, -1, -1);
    store.setEnd(fNode, bytes.length);
    if (depth >= 1) store.addFlags(fNode, Flag.expanded);
    fLimit = bytes.length;
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
    fNode = node;
    fLimit = isGroup ? (protobufData(index).groupEnd.get(node) ?? store.end[node]) : store.end[node];
    pos = start;
  }
  /** Frames open, the top one included (its slot in `stack` is stale while it is in the locals). */
  let height = 1;

  for (;;) {
    let bad: Bad;
    const tagStart = pos;
    let field = 0;
    let wt = 0;
    let length = 0;
    // The loop's body: a field read (continue) or a field that does not parse (break, with `bad`).
    readField: {
      if (pos >= fLimit) {
        if (fGroup >= 0) {
          bad = Bad.groupUnended;
          break readField;
        }
        // A message is complete.
        if (fNode >= 0) store.setArg(fNode, fEntries);
        if (--height === 0) return;
        const at = (height - 1) * FRAME;
        fNode = stack[at + F_NODE];
        fLimit = stack[at + F_LIMIT];
        fDepth = stack[at + F_DEPTH];
        fGroup = stack[at + F_GROUP];
        fPrev = stack[at + F_PREV];
        fEntries = stack[at + F_ENTRIES];
        fSpeculative = stack[at + F_SPECULATIVE];
        fWarnMark = stack[at + F_WARN_MARK];
        continue;
      }
      // One-byte varints (tags of fields 1-15, small values, short lengths) without the call.
      let tag = bytes[pos];
      let afterTag = pos + 1;
      if (tag >= 0x80) {
        afterTag = readVarint(bytes, pos, fLimit);
        if (afterTag < 0) {
          bad = afterTag === VARINT_TRUNCATED ? Bad.tagTruncated : Bad.tagTooLong;
          break readField;
        }
        tag = varintValue;
      }
      field = tag < 0x80000000 ? tag >>> 3 : Math.floor(tag / 8);
      wt = tag & 7;
      if (field === 0) {
        bad = Bad.fieldZero;
        break readField;
      }
      if (field > MAX_FIELD_NUMBER) {
        bad = Bad.fieldTooBig;
        break readField;
      }
      const record = fNode >= 0 && fDepth >= 1;
      pos = afterTag;

      if (wt === WireType.endGroup) {
        if (fGroup !== field) {
          bad = Bad.unmatchedEndGroup;
          break readField;
        }
        if (fNode >= 0) {
          protobufData(index).groupEnd.set(fNode, tagStart);
          store.setEnd(fNode, pos);
          store.setArg(fNode, fEntries);
        }
        const at = (--height - 1) * FRAME;
        fNode = stack[at + F_NODE];
        fLimit = stack[at + F_LIMIT];
        fDepth = stack[at + F_DEPTH];
        fGroup = stack[at + F_GROUP];
        fPrev = stack[at + F_PREV];
        fEntries = stack[at + F_ENTRIES];
        fSpeculative = stack[at + F_SPECULATIVE];
        fWarnMark = stack[at + F_WARN_MARK];
        continue;
      }

      // The value's node is written once, after the switch: one call site of addField, which
      // V8 then inlines (five sites went over its inlining budget, and each field paid a call).
      let kind = 0;
      let valueEnd = 0;
      let head = 0;
      let arg = 0;
      let flags = 0;
      /** 1: the value is a message read on trust, 2: one its scan found whole; either is opened below. */
      let open = 0;
      switch (wt) {
        case WireType.varint: {
          valueEnd = pos + 1;
          arg = bytes[pos];
          if (!(pos < fLimit && arg < 0x80)) {
            valueEnd = readVarint(bytes, pos, fLimit);
            if (valueEnd < 0) {
              bad = valueEnd === VARINT_TRUNCATED ? Bad.varintTruncated : Bad.varintTooLong;
              break readField;
            }
            arg = varintValue;
          }
          kind = Kind.uint;
          break;
        }
        case WireType.i64:
        case WireType.i32: {
          const size = wt === WireType.i64 ? 8 : 4;
          if (fLimit - pos < size) {
            bad = Bad.fixedTruncated;
            break readField;
          }
          kind = wt === WireType.i64 ? Kind.pb_i64 : Kind.pb_i32;
          valueEnd = pos + size;
          break;
        }
        case WireType.len: {
          let payload = pos + 1;
          length = bytes[pos];
          if (!(pos < fLimit && length < 0x80)) {
            payload = readVarint(bytes, pos, fLimit);
            if (payload < 0) {
              bad = payload === VARINT_TRUNCATED ? Bad.lengthTruncated : Bad.lengthTooLong;
              break readField;
            }
            length = varintValue;
          }
          if (length > fLimit - payload) {
            bad = Bad.lengthExceeds;
            break readField;
          }
          valueEnd = payload + length;
          head = payload - pos;
          if (!record) break;
          // The readings in firstReading's order, each looked at once: text, then a message.
          if (length === 0) kind = Kind.bytes;
          else if (
            isPrintableTextIn(
              bytes,
              length >= 32 && bytes[payload] >= 0x20 ? (view ??= byteView(bytes)) : null,
              payload,
              valueEnd,
            )
          ) {
            kind = Kind.text;
            arg = length;
          } else if (fDepth >= 2) {
            // Read as a message on trust (its argument is its field count once walked), unless
            // the payload is short, cannot start a message or starts with a (deprecated) group:
            // then ranked by a scan, and walked if it is a message after all.
            open = 1;
            if (length <= SCAN_FIRST || !plausibleFirstTag(bytes[payload])) {
              const reading = readingOfNonText(bytes, payload, valueEnd);
              arg = firstReadingCount;
              if (reading === 'message') open = 2;
              else {
                open = 0;
                kind = READING_KIND[reading];
              }
            }
            if (open) {
              kind = Kind.map;
              flags = Flag.expanded;
            }
          } else {
            // Not descended into (depth 1): ranked without recording what is below.
            kind = READING_KIND[readingOfNonText(bytes, payload, valueEnd)];
            arg = firstReadingCount;
          }
          break;
        }
        case WireType.startGroup: {
          let value = -1;
          const key = record ? addKey(store, tagStart, afterTag, tag, fNode, fPrev) : -1;
          // Its message is written when the walk ends (groupWarningMessages): a group read inside
          // a message taken on trust is usually noise in bytes that are not a message at all.
          index.warn({ code: 'deprecated-group', offset: tagStart, message: '', node: key });
          if (record) {
            value = store.add(Kind.pb_group, pos, 0, 0, fNode, key);
            store.setEnd(value, pos);
            if (fDepth >= 2) store.addFlags(value, Flag.expanded);
            fPrev = value;
          }
          const at = (height - 1) * FRAME;
          stack[at + F_NODE] = fNode;
          stack[at + F_LIMIT] = fLimit;
          stack[at + F_DEPTH] = fDepth;
          stack[at + F_GROUP] = fGroup;
          stack[at + F_PREV] = fPrev;
          stack[at + F_ENTRIES] = fEntries + 1;
          stack[at + F_SPECULATIVE] = fSpeculative;
          stack[at + F_WARN_MARK] = fWarnMark;
          height++;
          fNode = value;
          fDepth = record ? fDepth - 1 : 0;
          fGroup = field;
          fPrev = -1;
          fEntries = 0;
          fSpeculative = 0;
          fWarnMark = 0;
          continue;
        }
        default:
          bad = Bad.wireType;
          break readField;
      }
      if (record) {
        const value = addField(store, tagStart, tag, kind, pos, valueEnd, head, arg, fNode, fPrev, flags);
        if (open) {
          const at = (height - 1) * FRAME;
          stack[at + F_NODE] = fNode;
          stack[at + F_LIMIT] = fLimit;
          stack[at + F_DEPTH] = fDepth;
          stack[at + F_GROUP] = fGroup;
          stack[at + F_PREV] = value;
          stack[at + F_ENTRIES] = fEntries + 1;
          stack[at + F_SPECULATIVE] = fSpeculative;
          stack[at + F_WARN_MARK] = fWarnMark;
          height++;
          fNode = value;
          fLimit = valueEnd;
          fDepth--;
          fGroup = -1;
          fPrev = -1;
          fEntries = 0;
          fSpeculative = open === 1 ? 1 : 0;
          fWarnMark = open === 1 ? index.warnings.length : 0;
          pos += head;
          continue;
        }
        fPrev = value;
      }
      pos = valueEnd;
      fEntries++;
      continue;
    }
    // The field does not parse.
    const at = (height - 1) * FRAME;
    stack[at + F_NODE] = fNode;
    stack[at + F_LIMIT] = fLimit;
    stack[at + F_DEPTH] = fDepth;
    stack[at + F_GROUP] = fGroup;
    stack[at + F_PREV] = fPrev;
    stack[at + F_ENTRIES] = fEntries;
    stack[at + F_SPECULATIVE] = fSpeculative;
    stack[at + F_WARN_MARK] = fWarnMark;
    const kept = recover(index, height);
    if (kept < 0) {
      // A field whose tag parsed keeps its key, as a partial result beside the error (in a
      // reading taken back it would go with the rest).
      if (bad > Bad.unmatchedEndGroup && fNode >= 0 && fDepth >= 1) {
        readVarint(bytes, tagStart, fLimit);
        addKey(store, tagStart, pos, varintValue, fNode, fPrev);
      }
      failField(index, height, bad, tagStart, pos, fLimit, field, wt, fGroup, length);
      return;
    }
    height = kept;
    pos = resumeAt;
    const top = (height - 1) * FRAME;
    fNode = stack[top + F_NODE];
    fLimit = stack[top + F_LIMIT];
    fDepth = stack[top + F_DEPTH];
    fGroup = stack[top + F_GROUP];
    fPrev = stack[top + F_PREV];
    fEntries = stack[top + F_ENTRIES];
    fSpeculative = stack[top + F_SPECULATIVE];
    fWarnMark = stack[top + F_WARN_MARK];
  }
}

/**
 * Takes back a speculative message reading whose fields did not parse to its end: the nodes
 * recorded below it go (their slots zeroed, as fresh slab memory is), and so do their warnings
 * and group ends; the field is read as the next reading that fits (as firstReading would).
 */
function takeBack(index: SpanIndex, node: number, end: number, warnMark: number): void {
  const { bytes, store } = index;
  const mark = node + 1;
  const flagsAt = store.u8At + store.cap;
  store.slabU8.fill(0, flagsAt + mark, flagsAt + store.size);
  store.size = mark;
  store.slabU8[flagsAt + node] &= ~Flag.expanded;
  store.slabI32[store.i32At + 3 * store.cap + node] = -1; // firstChild
  if (index.warnings.length > warnMark) index.warnings.length = warnMark;
  const data = index.formatData as ProtobufData | null;
  if (data?.groupEnd.size) for (const id of data.groupEnd.keys()) if (id >= mark) data.groupEnd.delete(id);
  const start = store.slabI32[store.i32At + node] + store.slabU8[store.u8At + 2 * store.cap + node];
  const items = countPackedVarints(bytes, start, end);
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
  const count = countPackedVarints(bytes, start, end);
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
      next = readVarint(bytes, pos, end); // whole: countPackedVarints checked the run
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

/**
 * A field's two nodes, its key (the tag varint, `pb_tag`, from `tagStart` to where the value
 * starts) and its value, written in one call with every column set (add + setEnd + addFlags
 * per node was a fifth of the walk), linked after `prev` (or as `parent`'s first child). Not json/walker.ts's `recordNode`: that one
 * skips zero writes on fresh slots, while this walker takes nodes back and reuses their
 * slots, so it writes every column. (A shared SpanStore method was tried: the JSON mesh
 * index went from 0.98x to 1.80x, so each walker keeps its own.) Returns the value's id.
 */
function addField(
  store: SpanStore,
  tagStart: number,
  tag: number,
  kind: number,
  start: number,
  end: number,
  head: number,
  arg: number,
  parent: number,
  prev: number,
  flags: number,
): number {
  if (store.size + 2 > store.cap) growStore(store, start);
  const key = store.size;
  store.size = key + 2;
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const f64 = store.slabF64;
  const i = store.i32At + key;
  const b = store.u8At + key;
  u8[b] = Kind.pb_tag;
  u8[b + 1] = kind;
  u8[b + c] = Flag.key;
  u8[b + c + 1] = flags;
  u8[b + 2 * c] = 0;
  u8[b + 2 * c + 1] = head;
  i32[i] = tagStart;
  i32[i + 1] = start;
  i32[i + c] = start; // the tag ends where the value starts
  i32[i + c + 1] = end;
  i32[i + 2 * c] = parent;
  i32[i + 2 * c + 1] = parent;
  i32[i + 3 * c] = -1;
  i32[i + 3 * c + 1] = -1;
  i32[i + 4 * c] = key + 1;
  i32[i + 4 * c + 1] = -1;
  f64[store.f64At + key] = tag;
  f64[store.f64At + key + 1] = arg;
  if (prev >= 0) i32[store.i32At + 4 * c + prev] = key;
  else i32[store.i32At + 3 * c + parent] = key;
  return key + 1;
}

/**
 * Grows a full store whose walk has reached byte `pos` to the nodes the whole frame will need
 * at the density seen so far, plus 3-10 % (less the further the walk is): a message's density
 * hardly changes along it (a batch of records), a wider margin left more than a fifth unused
 * and `trim` then copied the whole store once more. At least a quarter more nodes, at most
 * one per byte and 64 times as many (a re-walk that opens one node deep in a frame extrapolates
 * from nodes recorded elsewhere); a frame denser than seen grows again from a closer estimate.
 */
function growStore(store: SpanStore, pos: number): void {
  const c = store.cap;
  const len = store.frameLength;
  const seen = pos > 0 && pos < len ? Math.ceil(((store.size * len) / pos) * (1.03 + (0.07 * (len - pos)) / len)) : 0;
  store.grow(Math.max(c + (c >> 2) + 16, Math.min(seen, c * 64, len + 1)));
}

/** A field's key node alone (a group's, whose value `store.add` writes, or one whose value does not parse). */
function addKey(store: SpanStore, tagStart: number, tagEnd: number, tag: number, parent: number, prev: number): number {
  if (store.size === store.cap) growStore(store, tagStart);
  const key = store.size++;
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const i = store.i32At + key;
  const b = store.u8At + key;
  u8[b] = Kind.pb_tag;
  u8[b + c] = Flag.key;
  u8[b + 2 * c] = 0;
  i32[i] = tagStart;
  i32[i + c] = tagEnd;
  i32[i + 2 * c] = parent;
  i32[i + 3 * c] = -1;
  i32[i + 4 * c] = -1;
  store.slabF64[store.f64At + key] = tag;
  if (prev >= 0) i32[store.i32At + 4 * c + prev] = key;
  else i32[store.i32At + 3 * c + parent] = key;
  return key;
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

const READING_KIND: Record<LenReading, number> = {
  message: Kind.map,
  text: Kind.text,
  bytes: Kind.bytes,
  packed: Kind.array,
};
