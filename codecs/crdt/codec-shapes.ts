/**
 * Shape validation of the JSON-shaped json-joy model codecs (structural compact / verbose),
 * and the helpers the patch shapes (codec-patch-shapes.ts) share, on values our own JSON / CBOR / MessagePack indexes
 * materialized. json-joy's decoders trust their input (they throw on some garbage and
 * build nonsense from the rest), so a value reaches them only after it has the exact
 * shape json-joy's encoders write: every timestamp in range of the clock table, every
 * length positive, no unknown keys, CRDT nesting bounded. Iterative, no recursion.
 */
import { STRICT_BASE64 } from '../core/base64.js';
import { isPlainObject } from './codec-json.js';

export { isPlainObject };

export type PathKey = string | number;

export interface ShapeError {
  readonly message: string;
  /** Where in the value the shape broke (array indexes and map keys from the root). */
  readonly path: readonly PathKey[];
}

export interface ShapeInfo {
  readonly clock: 'logical' | 'server';
  /** CRDT nodes (models) or operations (patches) seen. */
  readonly items: number;
}

export type ShapeResult =
  | { readonly ok: true; readonly info: ShapeInfo }
  | { readonly ok: false; readonly error: ShapeError };

/** json-joy's decoders and views recurse once per CRDT level; deeper documents are refused. */
export const MAX_CRDT_DEPTH = 1000;
/** `CRDT_CONSTANTS.MAX_TUPLE_LENGTH` + 1. */
export const MAX_VEC_LENGTH = 256;

export interface PathNode {
  readonly parent: PathNode | null;
  readonly key: PathKey;
}

export const at = (parent: PathNode | null, key: PathKey): PathNode => ({ parent, key });

function pathOf(p: PathNode | null): PathKey[] {
  const out: PathKey[] = [];
  for (let n = p; n; n = n.parent) out.push(n.key);
  return out.reverse();
}

/** Thrown inside the validators only; turned into a ShapeResult at their boundary. */
class ShapeFail {
  constructor(
    readonly message: string,
    readonly path: PathNode | null,
  ) {}
}

export function fail(path: PathNode | null, message: string): never {
  throw new ShapeFail(message, path);
}

export function run(body: () => ShapeInfo): ShapeResult {
  try {
    return { ok: true, info: body() };
  } catch (e) {
    if (e instanceof ShapeFail) return { ok: false, error: { message: e.message, path: pathOf(e.path) } };
    return { ok: false, error: { message: `invalid: ${(e as Error)?.message ?? e}`, path: [] } };
  }
}

export const isUint = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export const isBase64 = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && STRICT_BASE64.test(v);

export function keysExactly(
  o: Record<string, unknown>,
  required: readonly string[],
  optional: readonly string[],
  p: PathNode | null,
  what: string,
): void {
  for (const k of required) if (!Object.hasOwn(o, k)) fail(p, `${what} lacks "${k}"`);
  for (const k of Object.keys(o))
    if (!required.includes(k) && !optional.includes(k)) fail(at(p, k), `${what} has an unknown key "${k}"`);
}

interface Job {
  readonly v: unknown;
  readonly p: PathNode;
  readonly depth: number;
}

// ---------------------------------------------------------------------------------------
// Models

/** Structural compact model: `[clock, root]` (json-joy `structural/compact`). */
export function checkCompactModel(doc: unknown): ShapeResult {
  return run(() => {
    if (!Array.isArray(doc) || doc.length !== 2) fail(null, 'a compact model is [clock, root]');
    const time = doc[0];
    const server = typeof time === 'number';
    let serverTime = 0;
    const table: number[] = [];
    if (server) {
      if (!isUint(time)) fail(at(null, 0), 'server time is not an unsigned integer');
      serverTime = time;
    } else {
      if (!Array.isArray(time) || time.length < 2 || time.length % 2)
        fail(at(null, 0), 'clock table is not [sid, time, ...] pairs');
      const sids = new Set<number>();
      for (let i = 0; i < time.length; i += 2) {
        if (!isUint(time[i]) || time[i] < 1 || !isUint(time[i + 1]))
          fail(at(at(null, 0), i), 'clock table entry is not a session id and time');
        if (sids.has(time[i])) fail(at(at(null, 0), i), `session ${time[i]} listed twice`);
        sids.add(time[i]);
        table.push(time[i + 1]);
      }
    }
    const ts = (v: unknown, p: PathNode): void => {
      if (typeof v === 'number') {
        if (!server) fail(p, 'server timestamp in a logical-clock model');
        if (!isUint(v) || v > serverTime) fail(p, 'server timestamp out of range');
        return;
      }
      if (!Array.isArray(v) || v.length !== 2 || !Number.isSafeInteger(v[0]) || !isUint(v[1]))
        fail(p, 'not a timestamp');
      const s = v[0] as number;
      if (s === 0) return; // system session, absolute
      if (server || s > 0) fail(p, 'timestamp session is not a clock table index');
      if (-s > table.length) fail(p, `session index ${-s} beyond the clock table`);
      if ((v[1] as number) > table[-s - 1]) fail(p, 'timestamp before the session start');
    };
    // Nodes and chunks never live in the system session (json-joy reads a reference to
    // session 0 as "undefined"); only a timestamp constant may point there.
    const idTs = (v: unknown, p: PathNode): void => {
      if (Array.isArray(v) && v[0] === 0) fail(p, 'node or chunk id in the system session');
      ts(v, p);
    };
    if (doc[1] === 0) return { clock: server ? 'server' : 'logical', items: 0 };
    let items = 0;
    const stack: Job[] = [{ v: doc[1], p: at(null, 1), depth: 1 }];
    while (stack.length) {
      const { v, p, depth } = stack.pop()!;
      if (depth > MAX_CRDT_DEPTH) fail(p, 'nesting too deep');
      if (!Array.isArray(v) || v.length < 3 || !Number.isInteger(v[0]) || v[0] < 0 || v[0] > 6)
        fail(p, 'not a compact node [type, id, ...]');
      items++;
      idTs(v[1], at(p, 1));
      const type = v[0] as number;
      const body = v[2];
      const bp = at(p, 2);
      const child = (c: unknown, cp: PathNode) => stack.push({ v: c, p: cp, depth: depth + 1 });
      if (type === 0) {
        if (v.length === 4) {
          if (body !== 0) fail(bp, 'con with special data has 0 data');
          if (v[3] !== 0) ts(v[3], at(p, 3));
        } else if (v.length !== 3) fail(p, 'con node has 3 or 4 items');
        continue;
      }
      if (v.length !== 3) fail(p, 'node has 3 items');
      switch (type) {
        case 1:
          child(body, bp);
          break;
        case 2:
          if (!isPlainObject(body)) fail(bp, 'obj map is not an object with text keys');
          for (const k of Object.keys(body)) child(body[k], at(bp, k));
          break;
        case 3:
          if (!Array.isArray(body) || body.length > MAX_VEC_LENGTH) fail(bp, 'vec elements are not an array');
          for (let i = 0; i < body.length; i++) if (body[i] !== 0) child(body[i], at(bp, i));
          break;
        default: {
          if (!Array.isArray(body)) fail(bp, 'RGA chunks are not an array');
          for (let i = 0; i < body.length; i++) {
            const c = body[i];
            const cp = at(bp, i);
            if (!Array.isArray(c) || c.length !== 2) fail(cp, 'chunk is not [id, data]');
            idTs(c[0], at(cp, 0));
            const d = c[1];
            if (typeof d === 'number') {
              if (!isUint(d) || d < 1) fail(at(cp, 1), 'tombstone span is not a positive integer');
            } else if (type === 4) {
              if (typeof d !== 'string' || !d.length) fail(at(cp, 1), 'str chunk is not text');
            } else if (type === 5) {
              if (!(d instanceof Uint8Array) || !d.length) fail(at(cp, 1), 'bin chunk is not bytes');
            } else {
              if (!Array.isArray(d) || !d.length) fail(at(cp, 1), 'arr chunk is not a list of nodes');
              for (let j = 0; j < d.length; j++) child(d[j], at(at(cp, 1), j));
            }
          }
        }
      }
    }
    return { clock: server ? 'server' : 'logical', items };
  });
}

const VERBOSE_TYPES = new Set(['con', 'val', 'obj', 'vec', 'str', 'bin', 'arr']);

/** Structural verbose model: `{ time, root }` (json-joy `structural/verbose`). */
export function checkVerboseModel(doc: unknown): ShapeResult {
  return run(() => {
    if (!isPlainObject(doc)) fail(null, 'a verbose model is an object');
    keysExactly(doc, ['time', 'root'], [], null, 'verbose model');
    const time = doc.time;
    const server = typeof time === 'number';
    if (server) {
      if (!isUint(time)) fail(at(null, 'time'), 'server time is not an unsigned integer');
    } else {
      if (!Array.isArray(time) || !time.length)
        fail(at(null, 'time'), 'clock is neither a server time nor a list of [sid, time]');
      const sids = new Set<number>();
      for (let i = 0; i < time.length; i++) {
        const e = time[i];
        if (!Array.isArray(e) || e.length !== 2 || !isUint(e[0]) || e[0] < 1 || !isUint(e[1]))
          fail(at(at(null, 'time'), i), 'clock entry is not [sid, time]');
        if (sids.has(e[0])) fail(at(at(null, 'time'), i), `session ${e[0]} listed twice`);
        sids.add(e[0]);
      }
    }
    const ts = (v: unknown, p: PathNode): void => {
      if (typeof v === 'number') {
        if (!server || !isUint(v)) fail(p, 'not a timestamp');
        return;
      }
      if (!Array.isArray(v) || v.length !== 2 || !isUint(v[0]) || !isUint(v[1])) fail(p, 'not a timestamp [sid, time]');
    };
    const idTs = (v: unknown, p: PathNode): void => {
      if (Array.isArray(v) && v[0] === 0) fail(p, 'node or chunk id in the system session');
      ts(v, p);
    };
    const root = doc.root;
    const rp = at(null, 'root');
    if (!isPlainObject(root) || root.type !== 'val') fail(rp, 'root is not a val node');
    keysExactly(root, ['type', 'id', 'value'], [], rp, 'root');
    ts(root.id, at(rp, 'id'));
    const empty = root.value;
    // An empty document: the root holds the origin con ({ type: 'con', id: [0, 0] }).
    if (
      isPlainObject(empty) &&
      empty.type === 'con' &&
      Object.keys(empty).length === 2 &&
      Array.isArray(empty.id) &&
      empty.id.length === 2 &&
      empty.id[0] === 0 &&
      empty.id[1] === 0
    )
      return { clock: server ? 'server' : 'logical', items: 0 };
    let items = 0;
    const stack: Job[] = [{ v: root.value, p: at(rp, 'value'), depth: 1 }];
    while (stack.length) {
      const { v, p, depth } = stack.pop()!;
      if (depth > MAX_CRDT_DEPTH) fail(p, 'nesting too deep');
      if (!isPlainObject(v) || typeof v.type !== 'string' || !VERBOSE_TYPES.has(v.type)) fail(p, 'not a verbose node');
      items++;
      const child = (c: unknown, cp: PathNode) => stack.push({ v: c, p: cp, depth: depth + 1 });
      const type = v.type;
      if (type === 'con') keysExactly(v, ['type', 'id'], ['value', 'timestamp'], p, 'con node');
      else if (type === 'val') keysExactly(v, ['type', 'id', 'value'], [], p, 'val node');
      else if (type === 'obj' || type === 'vec') keysExactly(v, ['type', 'id', 'map'], [], p, `${type} node`);
      else keysExactly(v, ['type', 'id', 'chunks'], [], p, `${type} node`);
      idTs(v.id, at(p, 'id'));
      switch (type) {
        case 'con':
          if ('timestamp' in v) {
            if (v.timestamp !== true) fail(at(p, 'timestamp'), 'timestamp flag is not true');
            ts(v.value, at(p, 'value'));
          }
          break;
        case 'val':
          child(v.value, at(p, 'value'));
          break;
        case 'obj': {
          const map = v.map;
          if (!isPlainObject(map)) fail(at(p, 'map'), 'obj map is not an object');
          for (const k of Object.keys(map)) child(map[k], at(at(p, 'map'), k));
          break;
        }
        case 'vec': {
          const map = v.map;
          if (!Array.isArray(map) || map.length > MAX_VEC_LENGTH) fail(at(p, 'map'), 'vec map is not an array');
          for (let i = 0; i < map.length; i++) if (map[i] !== null) child(map[i], at(at(p, 'map'), i));
          break;
        }
        default: {
          const chunks = v.chunks;
          const cp0 = at(p, 'chunks');
          if (!Array.isArray(chunks)) fail(cp0, 'chunks are not an array');
          for (let i = 0; i < chunks.length; i++) {
            const c = chunks[i];
            const cp = at(cp0, i);
            if (!isPlainObject(c)) fail(cp, 'chunk is not an object');
            if ('span' in c) {
              keysExactly(c, ['id', 'span'], [], cp, 'tombstone');
              if (!isUint(c.span) || c.span < 1) fail(at(cp, 'span'), 'tombstone span is not a positive integer');
            } else {
              keysExactly(c, ['id', 'value'], [], cp, 'chunk');
              const d = c.value;
              if (
                type === 'str'
                  ? typeof d !== 'string' || !d.length
                  : type === 'bin'
                    ? !isBase64(d)
                    : !Array.isArray(d) || !d.length
              )
                fail(at(cp, 'value'), `${type} chunk value is malformed`);
              if (type === 'arr')
                for (let j = 0; j < (d as unknown[]).length; j++) child((d as unknown[])[j], at(at(cp, 'value'), j));
            }
            idTs(c.id, at(cp, 'id'));
          }
        }
      }
    }
    return { clock: server ? 'server' : 'logical', items };
  });
}
