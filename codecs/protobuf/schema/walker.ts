import type protobuf from 'protobufjs';
import { Flag, Kind } from '../../core/kinds.js';
import type { DecodeError } from '../../core/errors.js';
import type { FormatWalker, SpanIndex } from '../../core/span-index.js';
import { lenReadings } from '../readings.js';
import { MAX_FIELD_NUMBER, readVarint, scanMessage, VARINT_TRUNCATED, varintValue, WireType } from '../wire.js';
import {
  describeMessage,
  I32_TYPES,
  I64_TYPES,
  LEN_TYPES,
  VARINT_TYPES,
  type FieldDesc,
  type MessageDesc,
} from './descriptor.js';
import { schemaDescribe, schemaDetails, schemaLeafValue, schemaPreview, schemaValue } from './value.js';
import { NodeFields, schemaData, type SchemaData } from './data.js';
import { grouped } from '../../core/grouped.js';

export { schemaData, type SchemaData, type NodeField } from './data.js';

/**
 * Protobuf with a schema: the same node shapes as the raw walker (a message is a `map` whose
 * keys are `pb_tag` nodes; varints `uint`, fixed fields `pb_i32`/`pb_i64`, strings `text`,
 * bytes `bytes`, packed runs `array`), but each node knows its field, so keys read as field
 * names and values as the field's type (enums by name, sint zigzag, floats, bools). A map
 * field's entries are messages of key and value; an Any's value is walked as its type when
 * the schema has it. Unknown fields and fields whose wire type does not match the schema are
 * kept with their raw reading. Every node has its span; errors stop the walk with an offset
 * and keep what decoded. Messages deeper than MAX_NESTING are kept as bytes (protobuf's own
 * recursion limit), so the recursion here is bounded.
 */
export const MAX_NESTING = 100;

/** A walker for frames of one message type. */
export function schemaWalker(type: protobuf.Type): FormatWalker {
  const desc = describeMessage(type);
  return {
    format: 'protobuf',
    walk(index, node) {
      // The whole frame is recorded at once (the schema walk is as fast as the bytes allow):
      // later expand calls find every container already expanded.
      if (node >= 0) return;
      index.formatData = {
        type: desc,
        nodes: new NodeFields(),
        unknownFields: 0,
        wireMismatches: 0,
        missingRequired: 0,
        knownFields: 0,
      } satisfies SchemaData;
      walkRoot(index, desc);
    },
    leafValue: schemaLeafValue,
    value: schemaValue,
    describe: schemaDescribe,
    preview: schemaPreview,
    details: schemaDetails,
  };
}

/**
 * A walker for frames holding several messages of one type, each after its length as a
 * varint (protobufjs' `encodeDelimited`, as Centrifugo's Protobuf protocol batches commands
 * and replies). The root is an array of the messages; each message node's head is its
 * length prefix, so the prefix and the message have their own spans. A length past the
 * frame's end, or a message that does not parse, stops the walk there with its offset; the
 * messages before it stay.
 */
export function delimitedSchemaWalker(type: protobuf.Type): FormatWalker {
  const desc = describeMessage(type);
  return {
    format: 'protobuf',
    walk(index, node) {
      if (node >= 0) return;
      index.formatData = {
        type: desc,
        nodes: new NodeFields(),
        unknownFields: 0,
        wireMismatches: 0,
        missingRequired: 0,
        knownFields: 0,
        delimited: true,
      } satisfies SchemaData;
      walkDelimited(index, desc);
    },
    leafValue: schemaLeafValue,
    value: schemaValue,
    describe: schemaDescribe,
    preview: schemaPreview,
    details: schemaDetails,
  };
}

function walkDelimited(index: SpanIndex, desc: MessageDesc): void {
  const { store, bytes } = index;
  const len = bytes.length;
  const root = store.add(Kind.array, 0, 0, 0, -1, -1);
  store.setEnd(root, len);
  store.addFlags(root, Flag.expanded);
  const data = schemaData(index);
  let prev = -1;
  let items = 0;
  let pos = 0;
  try {
    if (len === 0) stop(index, root, 0, [root], 'empty-input', 0, 'no length-delimited message in an empty frame');
    while (pos < len) {
      const payload = readVarint(bytes, pos, len);
      if (payload < 0) {
        if (payload === VARINT_TRUNCATED)
          stop(
            index,
            root,
            items,
            [root],
            'truncated',
            len,
            `unexpected end of input inside the length of message ${items + 1}`,
          );
        stop(index, root, items, [root], 'invalid-varint', pos, `length of message ${items + 1} longer than 10 bytes`);
      }
      const length = varintValue;
      if (length > len - payload)
        stop(
          index,
          root,
          items,
          [root],
          'length-exceeds-input',
          pos,
          `message ${items + 1} declares ${grouped(length)} bytes, ${grouped(len - payload)} remain`,
        );
      const end = payload + length;
      const node = store.add(Kind.map, pos, payload - pos, 0, root, prev);
      store.setEnd(node, end);
      store.addFlags(node, Flag.expanded);
      data.nodes.set(node, { field: null, message: desc });
      prev = node;
      items++;
      store.setArg(root, items);
      walkMessage(index, node, desc, payload, end, 0, [root, node]);
      pos = end;
    }
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  store.setArg(root, items);
}

class Stop extends Error {}

/** Ends the walk: the error with its offset, the open nodes marked incomplete. */
function stop(
  index: SpanIndex,
  node: number,
  entries: number,
  open: readonly number[],
  code: DecodeError['code'],
  at: number,
  message: string,
): never {
  index.fail(code, at, message);
  index.store.setArg(node, entries);
  for (const n of open) index.store.addFlags(n, Flag.incomplete);
  throw new Stop();
}

const MISMATCH = { field: null, raw: 'wire-type-mismatch' } as const;

function walkRoot(index: SpanIndex, desc: MessageDesc): void {
  const { store, bytes } = index;
  const root = store.add(Kind.map, 0, 0, 0, -1, -1);
  store.setEnd(root, bytes.length);
  store.addFlags(root, Flag.expanded);
  schemaData(index).nodes.set(root, { field: null, message: desc });
  const open: number[] = [root];
  try {
    walkMessage(index, root, desc, 0, bytes.length, 0, open);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
}

function walkMessage(
  index: SpanIndex,
  node: number,
  desc: MessageDesc,
  start: number,
  limit: number,
  nesting: number,
  open: number[],
): void {
  const { bytes, store } = index;
  const data = schemaData(index);
  let pos = start;
  let prev = -1;
  let entries = 0;
  let anyType: MessageDesc | null = null;
  const seen = desc.requiredIds.length ? new Set<number>() : null;
  while (pos < limit) {
    const tagStart = pos;
    const afterTag = readVarint(bytes, pos, limit);
    if (afterTag < 0) {
      if (afterTag === VARINT_TRUNCATED)
        stop(index, node, entries, open, 'truncated', limit, 'unexpected end of input inside a field tag');
      stop(index, node, entries, open, 'invalid-varint', tagStart, 'field tag varint longer than 10 bytes');
    }
    const tag = varintValue;
    const fieldNo = Math.floor(tag / 8);
    const wt = tag % 8;
    if (fieldNo === 0) stop(index, node, entries, open, 'invalid-tag', tagStart, 'field number 0 is not allowed');
    if (fieldNo > MAX_FIELD_NUMBER)
      stop(index, node, entries, open, 'invalid-tag', tagStart, `field number ${fieldNo} is above 2^29 - 1`);
    if (wt === WireType.endGroup)
      stop(
        index,
        node,
        entries,
        open,
        'unmatched-end-group',
        tagStart,
        `end-group tag for field ${fieldNo} without a start-group tag`,
      );
    pos = afterTag;
    const known = desc.fields.get(fieldNo) ?? null;
    const packed = known !== null && wt === WireType.len && known.packable;
    const fits = known !== null && (packed || known.wire === wt);
    const field = fits ? known : null;
    if (known && !fits) data.wireMismatches++;
    else if (!known) data.unknownFields++;
    else data.knownFields++;
    seen?.add(fieldNo);

    const key = store.add(Kind.pb_tag, tagStart, 0, tag, node, prev);
    store.addFlags(key, Flag.key);
    store.setEnd(key, afterTag);
    data.nodes.setField(key, field);
    let value: number;
    switch (wt) {
      case WireType.varint: {
        const next = readVarint(bytes, pos, limit);
        if (next < 0) {
          if (next === VARINT_TRUNCATED)
            stop(
              index,
              node,
              entries,
              open,
              'truncated',
              limit,
              `unexpected end of input inside the varint of field ${fieldNo}`,
            );
          stop(index, node, entries, open, 'invalid-varint', pos, `varint of field ${fieldNo} longer than 10 bytes`);
        }
        value = store.add(Kind.uint, pos, 0, varintValue, node, key);
        store.setEnd(value, next);
        pos = next;
        break;
      }
      case WireType.i64:
      case WireType.i32: {
        const size = wt === WireType.i64 ? 8 : 4;
        if (limit - pos < size)
          stop(
            index,
            node,
            entries,
            open,
            'truncated',
            limit,
            `unexpected end of input: field ${fieldNo} needs ${grouped(size)} bytes, ${grouped(limit - pos)} remain`,
          );
        value = store.add(wt === WireType.i64 ? Kind.pb_i64 : Kind.pb_i32, pos, 0, 0, node, key);
        store.setEnd(value, pos + size);
        pos += size;
        break;
      }
      case WireType.len: {
        const payload = readVarint(bytes, pos, limit);
        if (payload < 0) {
          if (payload === VARINT_TRUNCATED)
            stop(
              index,
              node,
              entries,
              open,
              'truncated',
              limit,
              `unexpected end of input inside the length of field ${fieldNo}`,
            );
          stop(index, node, entries, open, 'invalid-varint', pos, `length of field ${fieldNo} longer than 10 bytes`);
        }
        const length = varintValue;
        if (length > limit - payload)
          stop(
            index,
            node,
            entries,
            open,
            'length-exceeds-input',
            pos,
            `field ${fieldNo} declares ${grouped(length)} bytes, ${grouped(limit - payload)} remain`,
          );
        const end = payload + length;
        value = lenValue(index, node, key, field, packed, desc, anyType, pos, payload, end, nesting, open);
        if (field && desc.fullName === 'google.protobuf.Any' && fieldNo === 1)
          anyType = anyTarget(index, desc, payload, end);
        pos = end;
        break;
      }
      case WireType.startGroup: {
        index.warn({
          code: 'deprecated-group',
          offset: tagStart,
          message: `field ${fieldNo} is a group (wire types 3/4, deprecated) at byte ${tagStart}`,
          node: key,
        });
        const end = groupEnd(bytes, pos, limit, fieldNo);
        if (end < 0)
          stop(
            index,
            node,
            entries,
            open,
            'truncated',
            limit,
            `unexpected end of input: group (field ${fieldNo}) has no end tag`,
          );
        value = store.add(Kind.bytes, pos, 0, end - pos, node, key);
        store.setEnd(value, end);
        data.nodes.set(value, { field: null, raw: ['bytes'] });
        pos = end;
        break;
      }
      default:
        stop(
          index,
          node,
          entries,
          open,
          'invalid-wire-type',
          tagStart,
          `field ${fieldNo} has wire type ${wt}, which does not exist`,
        );
        return;
    }
    if (!data.nodes.has(value)) {
      if (known && !fits) data.nodes.set(value, MISMATCH);
      else data.nodes.setField(value, field);
    }
    prev = value;
    entries++;
  }
  store.setArg(node, entries);
  if (seen) for (const id of desc.requiredIds) if (!seen.has(id)) data.missingRequired++;
}

/** The message type an Any's `type_url` names, when the schema has it. */
function anyTarget(index: SpanIndex, _any: MessageDesc, start: number, end: number): MessageDesc | null {
  const url = new TextDecoder().decode(index.bytes.subarray(start, end));
  const name = url.slice(url.lastIndexOf('/') + 1);
  try {
    const found = _any.root.lookup(name);
    return found && 'fieldsArray' in found ? describeMessage(found as protobuf.Type) : null;
  } catch {
    return null;
  }
}

function lenValue(
  index: SpanIndex,
  parent: number,
  key: number,
  field: FieldDesc | null,
  packed: boolean,
  message: MessageDesc,
  anyType: MessageDesc | null,
  pos: number,
  payload: number,
  end: number,
  nesting: number,
  open: number[],
): number {
  const { store, bytes } = index;
  const data = schemaData(index);
  const head = payload - pos;
  if (field && packed) {
    const node = store.add(Kind.array, pos, head, 0, parent, key);
    store.setEnd(node, end);
    store.addFlags(node, Flag.expanded);
    data.nodes.setField(node, field);
    let prev = -1;
    let items = 0;
    let at = payload;
    const size = I32_TYPES.has(field.type) ? 4 : I64_TYPES.has(field.type) ? 8 : 0;
    while (at < end) {
      let next: number;
      if (size) {
        if (end - at < size) {
          index.fail(
            'truncated',
            end,
            `packed field ${field.id}: ${grouped(end - at)} bytes left for a ${size}-byte item`,
          );
          for (const n of [...open, node]) store.addFlags(n, Flag.incomplete);
          store.setArg(node, items);
          throw new Stop();
        }
        next = at + size;
      } else {
        next = readVarint(bytes, at, end);
        if (next < 0) {
          index.fail(
            next === VARINT_TRUNCATED ? 'truncated' : 'invalid-varint',
            at,
            `packed field ${field.id}: a varint runs past its run`,
          );
          for (const n of [...open, node]) store.addFlags(n, Flag.incomplete);
          store.setArg(node, items);
          throw new Stop();
        }
      }
      const item = store.add(
        size === 4 ? Kind.pb_i32 : size === 8 ? Kind.pb_i64 : Kind.uint,
        at,
        0,
        size ? 0 : varintValue,
        node,
        prev,
      );
      store.setEnd(item, next);
      data.nodes.setField(item, field);
      prev = item;
      items++;
      at = next;
    }
    store.setArg(node, items);
    return node;
  }
  const isAnyValue =
    field !== null &&
    message.fullName === 'google.protobuf.Any' &&
    field.id === 2 &&
    anyType !== null &&
    scanMessage(bytes, payload, end) >= 0;
  const inner = isAnyValue
    ? anyType
    : field && (field.type === 'message' || field.type === 'entry')
      ? field.message
      : null;
  if (inner && nesting < MAX_NESTING) {
    const node = store.add(Kind.map, pos, head, 0, parent, key);
    store.setEnd(node, end);
    store.addFlags(node, Flag.expanded);
    data.nodes.set(node, { field, message: inner, anyValue: isAnyValue || undefined });
    open.push(node);
    walkMessage(index, node, inner, payload, end, nesting + 1, open);
    open.pop();
    return node;
  }
  if (inner)
    index.warn({
      code: 'nesting-too-deep',
      offset: pos,
      message: `field ${field!.id} nests deeper than ${MAX_NESTING} messages at byte ${pos}: kept as bytes`,
      node: key,
    });
  if (field && field.type === 'string') {
    const node = store.add(Kind.text, pos, head, end - payload, parent, key);
    store.setEnd(node, end);
    return node;
  }
  if (field && (field.type === 'bytes' || inner)) {
    const node = store.add(Kind.bytes, pos, head, end - payload, parent, key);
    store.setEnd(node, end);
    return node;
  }
  // Unknown (or mismatched) field: the raw reading, text or bytes, with the others kept for the details.
  const readings = lenReadings(bytes, payload, end).readings;
  const node = store.add(readings[0] === 'text' ? Kind.text : Kind.bytes, pos, head, end - payload, parent, key);
  store.setEnd(node, end);
  data.nodes.set(node, { field: null, raw: readings });
  return node;
}

/** Where a group that starts at `pos` ends (after its end tag), or -1. */
function groupEnd(bytes: Uint8Array, pos: number, limit: number, field: number): number {
  const stack = [field];
  while (pos < limit) {
    const p = readVarint(bytes, pos, limit);
    if (p < 0) return -1;
    const tag = varintValue;
    const f = Math.floor(tag / 8);
    pos = p;
    switch (tag % 8) {
      case WireType.varint: {
        const q = readVarint(bytes, pos, limit);
        if (q < 0) return -1;
        pos = q;
        break;
      }
      case WireType.i64:
        pos += 8;
        break;
      case WireType.i32:
        pos += 4;
        break;
      case WireType.len: {
        const q = readVarint(bytes, pos, limit);
        if (q < 0) return -1;
        pos = q + varintValue;
        break;
      }
      case WireType.startGroup:
        stack.push(f);
        break;
      case WireType.endGroup:
        if (stack.pop() !== f) return -1;
        if (!stack.length) return pos;
        break;
      default:
        return -1;
    }
  }
  return -1;
}

export { VARINT_TYPES, LEN_TYPES };
