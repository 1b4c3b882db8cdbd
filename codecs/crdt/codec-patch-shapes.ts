/**
 * Shape validation of json-joy's JSON-shaped patch codecs (compact, verbose), on values our
 * own indexes materialized: exact keys and arities, opcodes json-joy knows, timestamps and
 * spans that are unsigned integers, nothing empty that json-joy's builder would refuse.
 */
import {
  MAX_VEC_LENGTH,
  at,
  fail,
  isBase64,
  isPlainObject,
  isUint,
  keysExactly,
  run,
  type PathNode,
  type ShapeResult,
} from './codec-shapes.js';

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Compact patch: `[[id, meta?], ...ops]` (json-joy `json-crdt-patch/codec/compact`). */
export function checkCompactPatch(doc: unknown): ShapeResult {
  return run(() => {
    if (!Array.isArray(doc) || !doc.length) fail(null, 'a compact patch is [header, ...ops]');
    const header = doc[0];
    const hp = at(null, 0);
    if (!Array.isArray(header) || header.length < 1 || header.length > 2) fail(hp, 'header is not [id, meta?]');
    const id = header[0];
    let server = false;
    if (isUint(id)) server = true;
    else if (!Array.isArray(id) || id.length !== 2 || !isUint(id[0]) || id[0] < 1 || !isUint(id[1]))
      fail(at(hp, 0), 'patch id is not a time or [sid, time]');
    const ts = (v: unknown, p: PathNode): void => {
      if (isUint(v)) return;
      if (!Array.isArray(v) || v.length !== 2 || !isUint(v[0]) || !isUint(v[1])) fail(p, 'not a timestamp');
    };
    const tuples = (v: unknown, p: PathNode, key: (k: unknown) => boolean): void => {
      if (!Array.isArray(v) || !v.length) fail(p, 'no entries');
      for (let j = 0; j < v.length; j++) {
        const t = v[j];
        if (!Array.isArray(t) || t.length !== 2 || !key(t[0])) fail(at(p, j), 'entry is not [key, id]');
        ts(t[1], at(at(p, j), 1));
      }
    };
    for (let i = 1; i < doc.length; i++) {
      const op = doc[i];
      const p = at(null, i);
      if (!Array.isArray(op) || !op.length || !Number.isInteger(op[0])) fail(p, 'operation is not [opcode, ...]');
      const n = op.length;
      const bad = () => fail(p, `malformed operation ${op[0]}`);
      switch (op[0]) {
        case 0:
          if (n === 3) {
            if (op[2] !== true) bad();
            ts(op[1], at(p, 1));
          } else if (n > 3) bad();
          break;
        case 1:
        case 2:
        case 3:
        case 4:
        case 5:
        case 6:
          if (n !== 1) bad();
          break;
        case 9:
          if (n !== 3) bad();
          ts(op[1], at(p, 1));
          ts(op[2], at(p, 2));
          break;
        case 10:
        case 11:
          if (n !== 3) bad();
          ts(op[1], at(p, 1));
          tuples(op[2], at(p, 2), op[0] === 10 ? (k) => typeof k === 'string' : (k) => isUint(k) && k < MAX_VEC_LENGTH);
          break;
        case 12:
        case 13:
        case 14:
        case 15:
          if (n !== 4) bad();
          ts(op[1], at(p, 1));
          ts(op[2], at(p, 2));
          if (op[0] === 12 && !isText(op[3])) fail(at(p, 3), 'inserted text is empty or not text');
          if (op[0] === 13 && !isBase64(op[3])) fail(at(p, 3), 'inserted bytes are not base64');
          if (op[0] === 14) {
            if (!Array.isArray(op[3]) || !op[3].length) fail(at(p, 3), 'no inserted elements');
            for (let j = 0; j < op[3].length; j++) ts(op[3][j], at(at(p, 3), j));
          }
          if (op[0] === 15) ts(op[3], at(p, 3));
          break;
        case 16: {
          if (n !== 3) bad();
          ts(op[1], at(p, 1));
          const what = op[2];
          if (!Array.isArray(what) || !what.length) fail(at(p, 2), 'nothing to delete');
          for (let j = 0; j < what.length; j++) {
            const s = what[j];
            if (!Array.isArray(s) || (s.length !== 2 && s.length !== 3) || !s.every(isUint) || s[s.length - 1] < 1)
              fail(at(at(p, 2), j), 'not a timespan');
          }
          break;
        }
        case 17:
          if (n > 2 || (n === 2 && (!isUint(op[1]) || op[1] < 1))) bad();
          break;
        default:
          fail(at(p, 0), `unknown opcode ${op[0]}`);
      }
    }
    return { clock: server ? 'server' : 'logical', items: doc.length - 1 };
  });
}

const OP_KEYS: Record<string, readonly [readonly string[], readonly string[]]> = {
  new_con: [['op'], ['value', 'timestamp']],
  new_val: [['op'], []],
  new_obj: [['op'], []],
  new_vec: [['op'], []],
  new_str: [['op'], []],
  new_bin: [['op'], []],
  new_arr: [['op'], []],
  ins_val: [['op', 'obj', 'value'], []],
  ins_obj: [['op', 'obj', 'value'], []],
  ins_vec: [['op', 'obj', 'value'], []],
  ins_str: [['op', 'obj', 'after', 'value'], []],
  ins_bin: [['op', 'obj', 'after', 'value'], []],
  ins_arr: [['op', 'obj', 'after', 'values'], []],
  upd_arr: [['op', 'obj', 'ref', 'value'], []],
  del: [['op', 'obj', 'what'], []],
  nop: [['op'], ['len']],
};

/** Verbose patch: `{ id, ops, meta? }` (json-joy `json-crdt-patch/codec/verbose`). */
export function checkVerbosePatch(doc: unknown): ShapeResult {
  return run(() => {
    if (!isPlainObject(doc)) fail(null, 'a verbose patch is an object');
    keysExactly(doc, ['id', 'ops'], ['meta'], null, 'verbose patch');
    const id = doc.id;
    let server = false;
    if (isUint(id)) server = true;
    else if (!Array.isArray(id) || id.length !== 2 || !isUint(id[0]) || id[0] < 1 || !isUint(id[1]))
      fail(at(null, 'id'), 'patch id is not [sid, time]');
    else server = id[0] === 1;
    const ts = (v: unknown, p: PathNode): void => {
      if (isUint(v)) return;
      if (!Array.isArray(v) || v.length !== 2 || !isUint(v[0]) || !isUint(v[1])) fail(p, 'not a timestamp');
    };
    const ops = doc.ops;
    const opsPath = at(null, 'ops');
    if (!Array.isArray(ops)) fail(opsPath, 'ops is not an array');
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      const p = at(opsPath, i);
      if (!isPlainObject(op) || typeof op.op !== 'string' || !Object.hasOwn(OP_KEYS, op.op))
        fail(p, 'not a verbose operation');
      const name = op.op;
      const [req, opt] = OP_KEYS[name];
      keysExactly(op, req, opt, p, name);
      if ('obj' in op) ts(op.obj, at(p, 'obj'));
      if ('after' in op) ts(op.after, at(p, 'after'));
      if ('ref' in op) ts(op.ref, at(p, 'ref'));
      switch (name) {
        case 'new_con':
          if ('timestamp' in op) {
            if (op.timestamp !== true) fail(at(p, 'timestamp'), 'timestamp flag is not true');
            ts(op.value, at(p, 'value'));
          }
          break;
        case 'ins_val':
        case 'upd_arr':
          ts(op.value, at(p, 'value'));
          break;
        case 'ins_obj':
        case 'ins_vec': {
          const v = op.value;
          if (!Array.isArray(v) || !v.length) fail(at(p, 'value'), 'no entries');
          for (let j = 0; j < v.length; j++) {
            const t = v[j];
            const okKey = name === 'ins_obj' ? typeof t?.[0] === 'string' : isUint(t?.[0]) && t[0] < MAX_VEC_LENGTH;
            if (!Array.isArray(t) || t.length !== 2 || !okKey) fail(at(at(p, 'value'), j), 'entry is not [key, id]');
            ts(t[1], at(at(at(p, 'value'), j), 1));
          }
          break;
        }
        case 'ins_str':
          if (!isText(op.value)) fail(at(p, 'value'), 'inserted text is empty or not text');
          break;
        case 'ins_bin':
          if (!isBase64(op.value)) fail(at(p, 'value'), 'inserted bytes are not base64');
          break;
        case 'ins_arr': {
          const v = op.values;
          if (!Array.isArray(v) || !v.length) fail(at(p, 'values'), 'no inserted elements');
          for (let j = 0; j < v.length; j++) ts(v[j], at(at(p, 'values'), j));
          break;
        }
        case 'del': {
          const what = op.what;
          if (!Array.isArray(what) || !what.length) fail(at(p, 'what'), 'nothing to delete');
          for (let j = 0; j < what.length; j++) {
            const s = what[j];
            if (!Array.isArray(s) || s.length !== 3 || !s.every(isUint) || s[2] < 1)
              fail(at(at(p, 'what'), j), 'not a timespan [sid, time, span]');
          }
          break;
        }
        case 'nop':
          if ('len' in op && (!isUint(op.len) || op.len < 1))
            fail(at(p, 'len'), 'nop length is not a positive integer');
          break;
      }
    }
    return { clock: server ? 'server' : 'logical', items: ops.length };
  });
}
