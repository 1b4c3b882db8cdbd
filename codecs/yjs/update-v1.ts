import { Kind } from '../core/kinds.js';
import { readAny } from './any.js';
import type { LebCursor } from '../protocols/leb-cursor.js';

/** An item id: the client that made it and its clock there. */
export type YjsId = readonly [client: number, clock: number];

/** What an item carries (Yjs's content types 1–9). */
export type YjsContent =
  | { readonly type: 'deleted'; readonly length: number }
  | { readonly type: 'json'; readonly values: readonly unknown[] }
  | { readonly type: 'binary'; readonly value: Uint8Array }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'embed'; readonly value: unknown }
  | { readonly type: 'format'; readonly key: string; readonly value: unknown }
  | { readonly type: 'type'; readonly typeName: string; readonly nodeName?: string }
  | { readonly type: 'any'; readonly values: readonly unknown[] }
  | { readonly type: 'doc'; readonly guid: string; readonly opts: unknown };

/** One struct of an update: an item, a garbage-collected range or a skip. */
export interface YjsStruct {
  readonly struct: 'item' | 'gc' | 'skip';
  readonly client: number;
  readonly clock: number;
  /** Clock ticks the struct takes (a string's UTF-16 length, an array's item count, …). */
  readonly length: number;
  readonly origin: YjsId | null;
  readonly rightOrigin: YjsId | null;
  /** A root type's name, the id of the type item it is in, or null (the same parent as its origins'). */
  readonly parent: string | YjsId | null;
  /** The map key of an item in a map. */
  readonly parentSub: string | null;
  readonly content: YjsContent | null;
  /** The struct's node in the span index. */
  readonly node: number;
}

export interface YjsUpdate {
  readonly clients: readonly { readonly client: number; readonly clock: number; readonly structs: YjsStruct[] }[];
  /** Deleted ranges per client; `node` is the range's node in the span index. */
  readonly deleteSet: readonly {
    readonly client: number;
    readonly ranges: { clock: number; length: number; node: number }[];
  }[];
}

/** Yjs's shared types by their type ref (ContentType). */
export const YJS_TYPE_NAMES = ['YArray', 'YMap', 'YText', 'YXmlElement', 'YXmlFragment', 'YXmlHook', 'YXmlText'];

const CONTENT_NAMES = ['gc', 'deleted', 'json', 'binary', 'string', 'embed', 'format', 'type', 'any', 'doc', 'skip'];

/** A state vector (varUint count, then client and clock pairs): `[client, clock]` per entry. */
export function readStateVector(cursor: LebCursor, parent: number): YjsId[] {
  const entries: YjsId[] = [];
  const n = cursor.uintField(parent, 'clientCount', 'the state vector size');
  cursor.length(cursor.pos, n, 'the state vector');
  const list = cursor.openHere(parent, 'clocks', Kind.array);
  for (let i = 0; i < n; i++) {
    const entry = cursor.openHere(list, null, Kind.map);
    const client = cursor.uintField(entry, 'client');
    const clock = cursor.uintField(entry, 'clock');
    cursor.labels.set(entry, `client ${client} at clock ${clock}`);
    cursor.close(entry);
    entries.push([client, clock]);
  }
  cursor.close(list);
  return entries;
}

/** An update in Yjs's v1 encoding: structs per client, then the delete set. */
export function readUpdateV1(cursor: LebCursor, parent: number): YjsUpdate {
  const clients: YjsUpdate['clients'][number][] = [];
  const nClients = cursor.uintField(parent, 'clientCount', 'the number of clients');
  cursor.length(cursor.pos, nClients, 'the structs');
  const list = cursor.openHere(parent, 'structs', Kind.array);
  for (let i = 0; i < nClients; i++) {
    const block = cursor.openHere(list, null, Kind.map);
    const nStructs = cursor.uintField(block, 'structCount', 'the number of structs');
    const client = cursor.uintField(block, 'client');
    const first = cursor.uintField(block, 'clock');
    cursor.length(cursor.pos, nStructs, "the client's structs");
    cursor.labels.set(block, `client ${client}: ${nStructs} struct${nStructs === 1 ? '' : 's'} from clock ${first}`);
    const structs: YjsStruct[] = [];
    const items = cursor.openHere(block, 'items', Kind.array);
    let clock = first;
    for (let s = 0; s < nStructs; s++) {
      const struct = readStruct(cursor, items, client, clock);
      structs.push(struct);
      clock += struct.length;
    }
    cursor.close(items);
    cursor.close(block);
    clients.push({ client, clock: first, structs });
  }
  cursor.close(list);
  return { clients, deleteSet: readDeleteSet(cursor, parent) };
}

function readDeleteSet(cursor: LebCursor, parent: number): YjsUpdate['deleteSet'] {
  const result: { client: number; ranges: { clock: number; length: number; node: number }[] }[] = [];
  const ds = cursor.openHere(parent, 'deleteSet', Kind.map, 'delete set');
  const n = cursor.uintField(ds, 'clientCount', 'the delete set size');
  cursor.length(cursor.pos, n, 'the delete set');
  const list = cursor.openHere(ds, 'clients', Kind.array);
  for (let i = 0; i < n; i++) {
    const entry = cursor.openHere(list, null, Kind.map);
    const client = cursor.uintField(entry, 'client');
    const count = cursor.uintField(entry, 'rangeCount', 'the number of deleted ranges');
    cursor.length(cursor.pos, count, 'the deleted ranges');
    const ranges: { clock: number; length: number; node: number }[] = [];
    const rangeList = cursor.openHere(entry, 'ranges', Kind.array);
    for (let r = 0; r < count; r++) {
      const range = cursor.openHere(rangeList, null, Kind.map);
      const clock = cursor.uintField(range, 'clock');
      const length = cursor.uintField(range, 'length');
      cursor.labels.set(range, `${client}.${clock} ×${length}`);
      cursor.close(range);
      ranges.push({ clock, length, node: range });
    }
    cursor.close(rangeList);
    cursor.labels.set(entry, `client ${client}: ${count} deleted range${count === 1 ? '' : 's'}`);
    cursor.close(entry);
    result.push({ client, ranges });
  }
  cursor.close(list);
  cursor.close(ds);
  return result;
}

function readId(cursor: LebCursor, parent: number, name: string): YjsId {
  const id = cursor.openHere(parent, name, Kind.map);
  const client = cursor.uintField(id, 'client');
  const clock = cursor.uintField(id, 'clock');
  cursor.close(id);
  return [client, clock];
}

function readStruct(cursor: LebCursor, parent: number, client: number, clock: number): YjsStruct {
  const start = cursor.pos;
  const node = cursor.openHere(parent, null, Kind.map);
  const info = cursor.byte('a struct');
  const ref = info & 0x1f;
  cursor.named(node, 'info', start, INFO_TEXT[info]);
  if (ref > 10)
    cursor.fail(
      'invalid-byte',
      start,
      `struct info 0x${info.toString(16).padStart(2, '0')}: content type ${ref} is not one Yjs defines (0–10)`,
    );
  if (ref === 0 || ref === 10) {
    const length = cursor.uintField(node, 'length');
    cursor.labels.set(node, `${CONTENT_NAMES[ref]} ${client}.${clock} ×${length}`);
    cursor.close(node);
    const struct = ref === 0 ? 'gc' : 'skip';
    return {
      struct,
      client,
      clock,
      length,
      origin: null,
      rightOrigin: null,
      parent: null,
      parentSub: null,
      content: null,
      node,
    };
  }
  const origin = info & 0x80 ? readId(cursor, node, 'origin') : null;
  const rightOrigin = info & 0x40 ? readId(cursor, node, 'rightOrigin') : null;
  let parentOf: string | YjsId | null = null;
  let parentSub: string | null = null;
  if ((info & 0xc0) === 0) {
    const p = cursor.openHere(node, 'parent', Kind.map);
    const isRoot = cursor.uintField(p, 'isRootType', 'the parent kind') === 1;
    if (isRoot) {
      parentOf = cursor.stringField(p, 'name', "a root type's name", false).value;
      cursor.labels.set(p, `root type "${parentOf}"`);
    } else {
      const c = cursor.uintField(p, 'client');
      const k = cursor.uintField(p, 'clock');
      parentOf = [c, k];
      cursor.labels.set(p, `type item ${c}.${k}`);
    }
    cursor.close(p);
    if (info & 0x20) parentSub = cursor.stringField(node, 'parentSub', 'a map key', true).value;
  }
  const content = readContent(cursor, node, ref);
  const length = contentLength(content);
  cursor.labels.set(node, `item ${client}.${clock}${length === 1 ? '' : ` ×${length}`} ${content.type}`);
  cursor.close(node);
  return { struct: 'item', client, clock, length, origin, rightOrigin, parent: parentOf, parentSub, content, node };
}

/** The info byte in words, by its value (read once per struct: a table, not a string built each time). */
const INFO_TEXT = Array.from({ length: 256 }, (_, info) => infoText(info));

function infoText(info: number): string {
  const parts = [CONTENT_NAMES[info & 0x1f] ?? `content ${info & 0x1f}`];
  if ((info & 0x1f) !== 0 && (info & 0x1f) !== 10) {
    if (info & 0x80) parts.push('origin');
    if (info & 0x40) parts.push('rightOrigin');
    if ((info & 0xc0) === 0) parts.push('parent');
    if ((info & 0xc0) === 0 && info & 0x20) parts.push('parentSub');
  }
  return parts.join(', ');
}

function contentLength(content: YjsContent): number {
  switch (content.type) {
    case 'deleted':
      return content.length;
    case 'json':
    case 'any':
      return content.values.length;
    case 'string':
      return content.value.length;
    default:
      return 1;
  }
}

/** Parses a JSON text Yjs wrote (`undefined` is how ContentJSON writes undefined). */
function parseJson(cursor: LebCursor, at: number, raw: string, what: string): unknown {
  if (raw === 'undefined') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return cursor.fail('invalid-token', at, `${what} is not JSON text`);
  }
}

function readContent(cursor: LebCursor, node: number, ref: number): YjsContent {
  switch (ref) {
    case 1:
      return { type: 'deleted', length: cursor.uintField(node, 'deletedLength', 'the deleted length') };
    case 2:
    case 8: {
      const start = cursor.pos;
      const what = ref === 2 ? 'JSON content' : 'any content';
      const n = cursor.uint(`the ${what}'s count`);
      cursor.length(start, n, what);
      const list = cursor.openAt(node, ref === 2 ? 'json' : 'any', Kind.array, start);
      const values: unknown[] = [];
      for (let i = 0; i < n; i++) {
        if (ref === 2) {
          const at = cursor.pos;
          values.push(
            parseJson(cursor, at, cursor.stringField(list, null, 'a JSON value', true).value, 'a JSON value'),
          );
        } else {
          const at = cursor.pos;
          values.push(readAny(cursor, list, null));
          cursor.contentBytes += cursor.pos - at;
        }
      }
      cursor.close(list);
      return { type: ref === 2 ? 'json' : 'any', values };
    }
    case 3:
      return { type: 'binary', value: cursor.bytesField(node, 'binary', 'binary content', true) };
    case 4:
      return { type: 'string', value: cursor.stringField(node, 'string', 'string content', true).value };
    case 5: {
      const at = cursor.pos;
      const raw = cursor.stringField(node, 'embed', 'an embed', true).value;
      return { type: 'embed', value: parseJson(cursor, at, raw, 'an embed') };
    }
    case 6: {
      const f = cursor.openHere(node, 'format', Kind.map);
      const key = cursor.stringField(f, 'key', "a format's key", true).value;
      const at = cursor.pos;
      const value = parseJson(
        cursor,
        at,
        cursor.stringField(f, 'value', "a format's value", true).value,
        "a format's value",
      );
      cursor.close(f);
      return { type: 'format', key, value };
    }
    case 7: {
      const t = cursor.openHere(node, 'type', Kind.map);
      const at = cursor.pos;
      const typeRef = cursor.uint('a type ref');
      const typeName = YJS_TYPE_NAMES[typeRef];
      if (typeName === undefined) cursor.fail('invalid-byte', at, `type ref ${typeRef}: Yjs defines 0–6`);
      cursor.named(t, 'typeRef', at, typeName);
      let nodeName: string | undefined;
      if (typeRef === 3 || typeRef === 5) nodeName = cursor.stringField(t, 'nodeName', 'an XML node name', true).value;
      cursor.labels.set(t, nodeName === undefined ? typeName : `${typeName} <${nodeName}>`);
      cursor.close(t);
      return nodeName === undefined ? { type: 'type', typeName } : { type: 'type', typeName, nodeName };
    }
    default: {
      const d = cursor.openHere(node, 'doc', Kind.map);
      const guid = cursor.stringField(d, 'guid', "a subdocument's guid", true).value;
      const at = cursor.pos;
      const opts = readAny(cursor, d, 'opts');
      cursor.contentBytes += cursor.pos - at;
      cursor.close(d);
      return { type: 'doc', guid, opts };
    }
  }
}
