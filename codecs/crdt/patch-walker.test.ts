import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { PatchBuilder } from 'json-joy/lib/json-crdt-patch/PatchBuilder.js';
import { LogicalClock, ServerClockVector, Timestamp, ts, tss } from 'json-joy/lib/json-crdt-patch/clock/clock.js';
import { NewConOp, InsBinOp, InsObjOp, InsStrOp } from 'json-joy/lib/json-crdt-patch/operations.js';
import { s } from 'json-joy/lib/json-crdt-patch/schema.js';
import { encode as verboseEncode } from 'json-joy/lib/json-crdt-patch/codec/verbose/encode.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder';
import { Flag, Kind, isContainerKind } from '../core/kinds.js';
import { SpanIndex } from '../core/span-index.js';
import { crdtIdOf, crdtSpanOf } from './annotations.js';
import { editedModel, makeRng, type Rng } from './corpus.js';
import { crdtPatchWalker, indexCrdtPatch, looksLikePatch, patchByteSplit, PatchOpcode } from './patch-walker.js';
import { patchJson, patchOps, type VerbosePatchOp } from './patch-verbose.js';
import { asJsonPackDecodes, hex, nestingProblems, normalize, toHex, valueDiff } from '../test/helpers/cbor.js';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const plain = (b: Uint8Array): Uint8Array => Uint8Array.from(b);

/** json-joy's own reading of the bytes, in verbose form. */
function theirs(bytes: Uint8Array) {
  return verboseEncode(Patch.fromBinary(bytes));
}

/**
 * The first difference between our verbose ops and json-joy's, or null. Con values are
 * compared in json-pack's value model (what json-joy's CBOR decoder yields); a value whose
 * json-pack form cannot be told from ours (bigint / `__proto__` keys) is skipped.
 */
function opsDiff(ours: VerbosePatchOp[], json: readonly unknown[]): string | null {
  if (ours.length !== json.length) return `ops: ${ours.length} vs ${json.length}`;
  for (let i = 0; i < ours.length; i++) {
    const a = ours[i] as Record<string, unknown>;
    const b = json[i] as Record<string, unknown>;
    if (a.op === 'new_con' && !a.timestamp) {
      if (b.op !== 'new_con' || b.timestamp) return `ops[${i}]: ${a.op} vs ${JSON.stringify(b)}`;
      const mine = asJsonPackDecodes(a.value);
      if (mine.ambiguous) continue;
      const d = valueDiff(normalize(mine.value), normalize(b.value), `ops[${i}].value`);
      if (d) return d;
      continue;
    }
    const d = valueDiff(a, stripUndefined(b), `ops[${i}]`);
    if (d) return d;
  }
  return null;
}

function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Children of a node (keys included). */
function kids(index: SpanIndex, id: number): number[] {
  const out: number[] = [];
  for (let c = index.store.firstChild[id]; c >= 0; c = index.store.nextSibling[c]) out.push(c);
  return out;
}

/**
 * Structure of a complete index: the root spans the frame; every child lies inside its
 * parent after the parent's head, in order, disjoint; containers are expanded; nothing is
 * incomplete; content + metadata = frame size, content = the content leaves.
 */
function structureProblems(index: SpanIndex): string[] {
  const { store, bytes } = index;
  const problems = nestingProblems(index);
  if (store.size === 0) return ['no root'];
  if (store.kind[0] !== Kind.crdt_patch || store.start[0] !== 0 || store.end[0] !== bytes.length) {
    problems.push(`root ${index.kind(0)} spans [${store.start[0]}, ${store.end[0]}) of ${bytes.length}`);
  }
  let content = 0;
  for (let id = 0; id < store.size; id++) {
    if (store.flags[id] & Flag.incomplete) problems.push(`node ${id} incomplete`);
    if (isContainerKind(store.kind[id]) && !(store.flags[id] & Flag.expanded))
      problems.push(`container ${id} not expanded`);
    if (!isContainerKind(store.kind[id]) && store.firstChild[id] >= 0) problems.push(`leaf ${id} has children`);
    if (store.kind[id] === Kind.crdt_content) content += store.end[id] - store.start[id];
    if (id > 0 && store.parent[id] < 0) problems.push(`node ${id} has no parent`);
  }
  const split = patchByteSplit(index);
  if (
    split.totalBytes !== bytes.length ||
    split.contentBytes !== content ||
    split.contentBytes + split.metadataBytes !== bytes.length
  ) {
    problems.push(`byte split ${JSON.stringify(split)} (content leaves ${content})`);
  }
  return problems;
}

const utf8 = new TextEncoder();
const cbor = new CborEncoder();

/** Content bytes as json-joy's Patch object says: texts, binary data, keys and con values. */
function expectedContent(patch: Patch): number {
  let n = 0;
  for (const op of patch.ops) {
    if (op instanceof InsStrOp) n += utf8.encode(op.data).length;
    else if (op instanceof InsBinOp) n += op.data.length;
    else if (op instanceof InsObjOp) for (const [key] of op.data) n += utf8.encode(key).length;
    else if (op instanceof NewConOp && !(op.val instanceof Timestamp) && op.val !== undefined)
      n += cbor.encode(op.val).length;
  }
  return n;
}

/** Everything a valid patch must satisfy; returns the index. */
function verifyPatch(bytes: Uint8Array, label = ''): SpanIndex {
  bytes = plain(bytes);
  const index = indexCrdtPatch(bytes);
  const ctx = `${label} ${toHex(bytes).slice(0, 200)}`;
  expect(index.error, ctx).toBeNull();
  expect(structureProblems(index), ctx).toEqual([]);
  const patch = Patch.fromBinary(bytes);
  const json = verboseEncode(patch);
  const ops = patchOps(index);
  expect(opsDiff(ops, json.ops), ctx).toBeNull();
  // The root's value is the verbose patch; every op node's value its verbose op.
  const root = index.value(0) as NonNullable<ReturnType<typeof patchJson>>;
  expect(root.id, ctx).toEqual(json.id);
  expect(opsDiff(root.ops, json.ops), ctx).toBeNull();
  if ('meta' in json)
    expect(valueDiff(normalize(asJsonPackDecodes(root.meta).value), normalize(json.meta)), ctx).toBeNull();
  else expect('meta' in root, ctx).toBe(false);
  const opNodes = kids(index, 0).filter((c) => index.store.kind[c] === Kind.crdt_op);
  expect(opNodes.length, ctx).toBe(patch.ops.length);
  for (let i = 0; i < opNodes.length; i++) {
    const op = patch.ops[i];
    const node = opNodes[i];
    expect(index.store.arg[node], ctx).toBe(PatchOpcode[op.name() as keyof typeof PatchOpcode]);
    expect(crdtIdOf(index, node), ctx).toEqual({ sid: op.id.sid, time: op.id.time });
    expect(crdtSpanOf(index, node), ctx).toBe(op.span());
    expect(valueDiff(index.value(node), ops[i]), ctx).toBeNull();
  }
  expect(patchByteSplit(index).contentBytes, ctx).toBe(expectedContent(patch));
  expect(looksLikePatch(bytes), ctx).toBe(true);
  return index;
}

/** Flushes the model's pending changes and returns the patch bytes. */
function flush(model: { api: { flush(): Patch } }): Uint8Array {
  return plain(model.api.flush().toBinary());
}

// ---------------------------------------------------------------------------------------
// Patches from the json-joy API
// ---------------------------------------------------------------------------------------

/** A scripted editing session; returns every flushed patch. */
function scriptedPatches(model: Model): Uint8Array[] {
  const out: Uint8Array[] = [];
  model.api.root({
    title: 'Hello',
    count: 1,
    ok: true,
    none: null,
    list: [1, 'two', { three: 3 }, [4.5, -6]],
    nested: { deep: { deeper: { text: 'naïve 日本 😀' } } },
    vec: s.vec(s.con(1), s.con('x'), s.str('vs')),
    blob: new Uint8Array([1, 2, 3, 250]),
    frozen: s.con({ a: [1, 2, { b: null }], big: 2 ** 40, f: 0.25, neg: -1234567 }),
  });
  out.push(flush(model));
  const api = model.api;
  api.str(['title']).ins(5, ', world');
  out.push(flush(model));
  api.str(['title']).del(0, 2);
  api.str(['title']).ins(0, 'Ωh');
  out.push(flush(model));
  api.str(['nested', 'deep', 'deeper', 'text']).ins(0, 'x'.repeat(300));
  api.str(['nested', 'deep', 'deeper', 'text']).del(10, 200);
  out.push(flush(model));
  api.arr(['list']).ins(1, [true, { k: 'v' }, 'seven']);
  api.arr(['list']).del(0, 2);
  out.push(flush(model));
  api.arr(['list']).upd(0, 99);
  out.push(flush(model));
  api.obj([]).set({ count: 2, added: 'new', κλειδί: [1, 2] });
  out.push(flush(model));
  api.obj([]).del(['none', 'ok']);
  out.push(flush(model));
  api.vec(['vec']).set([
    [0, 42],
    [3, 'appended'],
  ]);
  out.push(flush(model));
  api.bin(['blob']).ins(
    2,
    new Uint8Array(40).map((_, i) => i * 7),
  );
  api.bin(['blob']).del(0, 3);
  out.push(flush(model));
  // Many keys (length in a varint), many elements.
  api.obj(['nested']).set(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i])));
  out.push(flush(model));
  api.arr(['list']).ins(
    0,
    Array.from({ length: 20 }, (_, i) => i),
  );
  out.push(flush(model));
  // Deletes spread over several ranges: interleave so one del covers disjoint spans.
  const str = api.str(['title']);
  for (let i = 0; i < 6; i++) {
    str.ins(str.view().length, `#${i}`);
    flush(model);
  }
  str.del(1, str.view().length - 2);
  out.push(flush(model));
  return out;
}

describe('crdt patch walker: json-joy API patches', () => {
  it('logical clock: every flushed patch validates and matches json-joy', () => {
    const model = Model.create(undefined, 0x12345678);
    const patches = scriptedPatches(model);
    expect(patches.length).toBeGreaterThan(10);
    patches.forEach((p, i) => {
      verifyPatch(p, `logical #${i}`);
    });
    // A del with several ranges really occurs.
    const last = Patch.fromBinary(patches[patches.length - 1]);
    expect(last.ops.some((op) => op.name() === 'del' && (op as unknown as { what: unknown[] }).what.length > 1)).toBe(
      true,
    );
  });

  it('server clock: patches use session 1 and verbose ids are plain times', () => {
    const model = Model.withServerClock(undefined, 1);
    const patches = scriptedPatches(model);
    for (const [i, p] of patches.entries()) {
      const index = verifyPatch(p, `server #${i}`);
      expect(crdtIdOf(index, 0)?.sid).toBe(1);
      expect(p[0]).toBe(0x01);
    }
    const first = patchOps(indexCrdtPatch(patches[0]));
    // The root set refers to the system origin [0, 0] and a server id (a plain number).
    const setRoot = first[first.length - 1];
    expect(setRoot).toEqual({ op: 'ins_val', obj: [0, 0], value: expect.any(Number) });
  });

  it('schema models: the default-value patch uses session 2 (GLOBAL)', () => {
    const model = Model.create(s.obj({ name: s.str('x'), tags: s.arr([s.con('a')]) }), 0x10001);
    const first = flush(model);
    const index = verifyPatch(first, 'schema');
    expect(crdtIdOf(index, 0)?.sid).toBe(2);
    model.api.str(['name']).ins(1, 'yz');
    const second = verifyPatch(flush(model), 'after schema');
    expect(crdtIdOf(second, 0)?.sid).toBe(0x10001);
  });

  it('patch meta is decoded (root value and crdt_meta node)', () => {
    const b = new PatchBuilder(new LogicalClock(777777, 3));
    b.obj();
    const patch = b.flush();
    patch.meta = { user: 'ann', n: [1, 2] };
    const bytes = plain(patch.toBinary());
    const index = verifyPatch(bytes, 'meta');
    const meta = kids(index, 0)[1];
    expect(index.kind(meta)).toBe('crdt_meta');
    expect(index.value(meta)).toEqual({ user: 'ann', n: [1, 2] });
    expect(index.value(0)).toEqual({ id: [777777, 3], ops: [{ op: 'new_obj' }], meta: { user: 'ann', n: [1, 2] } });
  });
});

// ---------------------------------------------------------------------------------------
// Hand-built patches: every opcode
// ---------------------------------------------------------------------------------------

describe('crdt patch walker: PatchBuilder patches', () => {
  const SID = 4_503_599_627_370_495; // 2^52 - 1: 8-byte varints
  const OTHER = 987_654_321;

  function everyOpcode(sid: number, time: number): Patch {
    const b = new PatchBuilder(sid === 1 ? new ServerClockVector(1, time) : new LogicalClock(sid, time));
    const other = (t: number) => ts(sid === 1 ? 1 : OTHER, t);
    const con = b.con(42);
    const conTs = b.con(other(3));
    const val = b.val();
    const obj = b.obj();
    const vec = b.vec();
    const str = b.str();
    const bin = b.bin();
    const arr = b.arr();
    b.con(undefined);
    b.con(null);
    b.con([1, 'two', { three: new Uint8Array([3]) }]);
    b.con(-1.5);
    b.con('a'.repeat(30));
    b.setVal(val, con);
    b.insObj(obj, [
      ['a', con],
      ['é', val],
    ]);
    b.insObj(
      obj,
      Array.from({ length: 9 }, (_, i) => [`key${i}`, con] as [string, Timestamp]),
    );
    b.insVec(vec, [
      [0, con],
      [7, conTs],
      [23, val],
    ]);
    const s1 = b.insStr(str, str, 'héllo');
    b.insStr(str, s1, 'a longer text with 😀 emoji and more than seven bytes');
    const b1 = b.insBin(bin, bin, new Uint8Array([0, 255, 128]));
    b.insBin(
      bin,
      b1,
      new Uint8Array(200).map((_, i) => i),
    );
    const a1 = b.insArr(arr, arr, [con, val]);
    b.insArr(
      arr,
      a1,
      Array.from({ length: 11 }, () => con),
    );
    b.updArr(arr, a1, val);
    b.insStr(str, other(5), 'ref to another session');
    b.del(str, [tss(sid, s1.time, 2)]);
    b.del(str, [tss(sid, s1.time, 1), tss(sid, s1.time + 3, 2), tss(sid === 1 ? 1 : OTHER, 2, 4)]);
    b.del(
      arr,
      Array.from({ length: 9 }, (_, i) => tss(sid, a1.time, 1 + (i % 2))),
    );
    b.nop(1);
    b.nop(5);
    b.nop(1000);
    b.root(obj);
    return b.flush();
  }

  it('every opcode, logical clock with 53-bit session ids', () => {
    const patch = everyOpcode(SID, 2 ** 40);
    const bytes = plain(patch.toBinary());
    const index = verifyPatch(bytes, 'every opcode');
    const names = new Set(patchOps(index).map((o) => o.op));
    expect([...names].sort()).toEqual(Object.keys(PatchOpcode).sort());

    // Node values and metadata of the individual parts.
    const { store } = index;
    const ops = kids(index, 0).filter((c) => store.kind[c] === Kind.crdt_op);
    const byName = (name: string) => ops.filter((c) => store.arg[c] === PatchOpcode[name as keyof typeof PatchOpcode]);
    const [conTs] = byName('new_con').filter((c) => store.kind[store.firstChild[c]] === Kind.crdt_id);
    expect(index.value(store.firstChild[conTs])).toEqual([OTHER, 3]);
    // con(undefined) (json-joy's deletion marker) has no content leaf.
    expect(byName('new_con').filter((c) => store.firstChild[c] < 0).length).toBe(1);
    const vec = byName('ins_vec')[0];
    expect(
      kids(index, vec)
        .slice(1)
        .map((c) => store.arg[c]),
    ).toEqual([0, 7, 23]);
    const del = byName('del')[1];
    const ranges = kids(index, del).slice(1);
    const what = (patchOps(index)[ops.indexOf(del)] as { what: number[][] }).what;
    expect(ranges.map((c) => index.value(c))).toEqual(what);
    expect(what[0][0]).toBe(SID);
    expect(what[1][1] - what[0][1]).toBe(3);
    expect(what[2]).toEqual([OTHER, 2, 4]);
    expect(ranges.map((c) => crdtSpanOf(index, c))).toEqual([1, 2, 4]);
    const [nop] = byName('nop').filter((c) => crdtSpanOf(index, c) === 1000);
    expect(toHex(bytes.subarray(store.start[nop], store.end[nop]))).toBe('88e807');
    expect(store.head[nop]).toBe(3);
    const obj9 = byName('ins_obj')[1];
    expect(store.head[obj9]).toBe(2);
    const keys = kids(index, obj9).filter((c) => store.flags[c] & Flag.key);
    expect(keys.map((c) => index.value(c))).toEqual(Array.from({ length: 9 }, (_, i) => `key${i}`));
    for (const k of keys) expect(store.kind[store.nextSibling[k]]).toBe(Kind.crdt_id);
  });

  it('every opcode, server clock', () => {
    verifyPatch(plain(everyOpcode(1, 5000).toBinary()), 'every opcode (server)');
  });

  it('every opcode, small session and time', () => {
    verifyPatch(plain(everyOpcode(65536, 1).toBinary()), 'every opcode (small)');
  });

  it('records the layout: id, meta, ops with heads, ids and content', () => {
    const b = new PatchBuilder(new LogicalClock(100, 1));
    const str = b.str();
    b.insStr(str, str, 'abc');
    b.insObj(b.obj(), [['key', str]]);
    const bytes = plain(b.flush().toBinary());
    // 64 01 | f7 | 04 | 20 | 63 01 01 'abc' | 10 | 51 05 63 'key' 01
    expect(toHex(bytes)).toBe('6401f704' + '20' + '630101616263' + '10' + '5105636b657901');
    const index = verifyPatch(bytes);
    const { store } = index;
    const rows = Array.from({ length: store.size }, (_, id) => [
      index.kind(id),
      store.start[id],
      store.end[id],
      store.head[id],
      store.arg[id],
      store.parent[id],
      store.flags[id] & Flag.key ? 'key' : '',
    ]);
    expect(rows).toEqual([
      ['crdt_patch', 0, 19, 0, 4, -1, ''],
      ['crdt_id', 0, 2, 2, 0, 0, ''],
      ['crdt_meta', 2, 3, 1, 0, 0, ''],
      ['crdt_op', 4, 5, 1, PatchOpcode.new_str, 0, ''],
      ['crdt_op', 5, 11, 1, PatchOpcode.ins_str, 0, ''],
      ['crdt_id', 6, 7, 1, 0, 4, ''],
      ['crdt_id', 7, 8, 1, 0, 4, ''],
      ['crdt_content', 8, 11, 0, 3, 4, ''],
      ['crdt_op', 11, 12, 1, PatchOpcode.new_obj, 0, ''],
      ['crdt_op', 12, 19, 1, PatchOpcode.ins_obj, 0, ''],
      ['crdt_id', 13, 14, 1, 0, 9, ''],
      ['crdt_content', 15, 18, 0, 3, 9, 'key'],
      ['crdt_id', 18, 19, 1, 0, 9, ''],
    ]);
    expect(crdtIdOf(index, 4)).toEqual({ sid: 100, time: 2 });
    expect(crdtSpanOf(index, 4)).toBe(3);
    expect(crdtIdOf(index, 8)).toEqual({ sid: 100, time: 5 });
    expect(crdtIdOf(index, 9)).toEqual({ sid: 100, time: 6 });
    expect(crdtIdOf(index, 10)).toEqual({ sid: 100, time: 5 });
    expect(crdtSpanOf(index, 0)).toBe(6);
    expect(index.value(7)).toBe('abc');
    expect(index.value(11)).toBe('key');
    expect(index.value(12)).toEqual([100, 1]);
    expect(index.value(1)).toEqual([100, 1]);
    expect(patchByteSplit(index)).toEqual({ totalBytes: 19, contentBytes: 6, metadataBytes: 13 });
  });

  it('duplicate keys in a con value are warnings on its content leaf', () => {
    // new_obj-free patch: one new_con holding {"a": 1, "a": 2}.
    const index = indexCrdtPatch(hex('6401f70100' + 'a2616101616102'));
    expect(index.ok).toBe(true);
    expect(index.warnings).toHaveLength(1);
    expect(index.warnings[0]).toMatchObject({ code: 'duplicate-key', offset: 9 });
  });

  it('walk on a recorded node is a no-op; depth is ignored', () => {
    const bytes = plain(everyOpcode(70000, 10).toBinary());
    const index = indexCrdtPatch(bytes);
    const size = index.store.size;
    for (let id = 0; id < size; id++) index.expand(id, 3);
    crdtPatchWalker.walk(index, 0, 5);
    expect(index.store.size).toBe(size);
    const shallow = new SpanIndex(bytes, crdtPatchWalker, { depth: 1 });
    expect(shallow.store.size).toBe(size);
    expect(index.nodeAt(bytes.length - 1)).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------
// Randomized
// ---------------------------------------------------------------------------------------

function randomPatches(): { label: string; bytes: Uint8Array }[] {
  const out: { label: string; bytes: Uint8Array }[] = [];
  for (let seed = 1; seed <= 16; seed++) {
    const clock = seed % 4 === 0 ? 'server' : 'logical';
    const { patches } = editedModel(seed, { clock, sessions: 2 + (seed % 4), edits: 30 });
    patches.forEach((p, i) => {
      out.push({ label: `seed ${seed} ${clock} #${i}`, bytes: plain(p.toBinary()) });
    });
  }
  return out;
}

function mutate(rng: Rng, bytes: Uint8Array): Uint8Array {
  const b = Array.from(bytes);
  const n = rng.range(1, 3);
  for (let i = 0; i < n; i++) {
    const at = rng.int(b.length + 1);
    switch (rng.int(6)) {
      case 0:
        if (at < b.length) b[at] ^= 1 << rng.int(8);
        break;
      case 1:
        if (at < b.length) b[at] = rng.int(256);
        break;
      case 2:
        b.splice(at, 1);
        break;
      case 3:
        b.splice(at, 0, rng.int(256));
        break;
      case 4:
        b.length = Math.min(b.length, at);
        break;
      default:
        if (at < b.length) b[at] = rng.pick([0x00, 0x7f, 0x80, 0xff, 0xf7, 0x81, 0x60, 0x88]);
    }
  }
  return Uint8Array.from(b);
}

describe('crdt patch walker: randomized', () => {
  const corpus = randomPatches();

  it('patches of 2..5 forked sessions (logical and server clock) all validate', () => {
    expect(corpus.length).toBeGreaterThan(150);
    let multiSession = 0;
    for (const { label, bytes } of corpus) {
      const index = verifyPatch(bytes, label);
      const sid = crdtIdOf(index, 0)!.sid;
      if (patchOps(index).some((op) => 'obj' in op && Array.isArray(op.obj) && op.obj[0] !== sid && op.obj[0] !== 0))
        multiSession++;
    }
    // Concurrent sessions do refer to each other's nodes.
    expect(multiSession).toBeGreaterThan(10);
  });

  it('truncations are rejected as truncated / length-exceeds-input and never throw', () => {
    for (const { label, bytes } of corpus.slice(0, 60)) {
      for (let cut = 0; cut < bytes.length; cut++) {
        const index = indexCrdtPatch(bytes.subarray(0, cut));
        expect(index.error?.code, `${label} cut ${cut}`).toMatch(/^(truncated|length-exceeds-input|empty-input)$/);
        expect(nestingProblems(index), `${label} cut ${cut}`).toEqual([]);
        patchOps(index);
        index.value(0);
      }
    }
  });

  it('mutations never throw, keep the partial tree sound, and what we accept json-joy reads the same', () => {
    const rng = makeRng(20240521);
    let accepted = 0;
    let rejected = 0;
    for (let round = 0; round < 6; round++) {
      for (const { label, bytes } of corpus) {
        const m = mutate(rng, bytes);
        const ctx = `${label} mutated ${toHex(m)}`;
        let index: SpanIndex;
        try {
          index = indexCrdtPatch(m);
          patchOps(index);
          patchByteSplit(index);
          for (let id = 0; id < index.store.size; id++) index.value(id);
        } catch (e) {
          throw new Error(`${ctx}: threw ${(e as Error).message}`);
        }
        expect(nestingProblems(index), ctx).toEqual([]);
        if (index.error) {
          rejected++;
          expect(index.error.offset, ctx).toBeLessThanOrEqual(m.length);
          if (index.root >= 0) expect(index.isIncomplete(0) || index.error.code === 'trailing-bytes', ctx).toBe(true);
          continue;
        }
        accepted++;
        expect(structureProblems(index), ctx).toEqual([]);
        let json: ReturnType<typeof theirs>;
        try {
          json = theirs(m);
        } catch (e) {
          throw new Error(`${ctx}: we accept, json-joy throws ${(e as Error).message}`);
        }
        expect(opsDiff(patchOps(index), json.ops), ctx).toBeNull();
        expect(patchJson(index)?.id, ctx).toEqual(json.id);
      }
    }
    expect(accepted).toBeGreaterThan(20);
    expect(rejected).toBeGreaterThan(accepted);
  });

  it('random bytes rarely pass, and never throw', () => {
    const rng = makeRng(7);
    let passed = 0;
    for (let i = 0; i < 3000; i++) {
      const b = new Uint8Array(rng.range(0, 40)).map(() => rng.int(256));
      const index = indexCrdtPatch(b);
      expect(nestingProblems(index)).toEqual([]);
      if (index.ok) passed++;
    }
    expect(passed).toBeLessThan(30);
  });
});

// ---------------------------------------------------------------------------------------
// Models are not patches
// ---------------------------------------------------------------------------------------

describe('crdt patch walker: model frames', () => {
  function serverModel(): Uint8Array {
    const model = Model.withServerClock(undefined, 1);
    model.api.root({ a: 'hello', n: [1, 2, 3] });
    model.api.flush();
    return plain(model.toBinary());
  }

  it("json-joy's Patch.fromBinary reads a server-clock model as a patch; we reject it", () => {
    const bytes = serverModel();
    const nonsense = Patch.fromBinary(bytes);
    expect(nonsense.ops.length).toBeGreaterThan(0);
    expect(() => verboseEncode(nonsense)).not.toThrow();
    const index = indexCrdtPatch(bytes);
    expect(index.ok).toBe(false);
    expect(index.error!.code).toBe('implausible');
    expect(looksLikePatch(bytes)).toBe(false);
    // An empty server-clock model too.
    const empty = plain(Model.withServerClock(undefined, 1).toBinary());
    expect(indexCrdtPatch(empty).ok).toBe(false);
  });

  it('logical-clock models and the corpus models are rejected', () => {
    const model = Model.create(undefined, 123456);
    model.api.root({ x: [1, 2], y: 'text' });
    model.api.flush();
    const samples = [plain(model.toBinary())];
    for (const seed of [3, 4, 5, 8])
      samples.push(plain(editedModel(seed, { clock: seed % 2 ? 'logical' : 'server', edits: 10 }).model.toBinary()));
    for (const bytes of samples) {
      expect(indexCrdtPatch(bytes).ok, toHex(bytes)).toBe(false);
      expect(looksLikePatch(bytes)).toBe(false);
    }
  });

  it('CBOR and JSON frames are no patches', () => {
    for (const h of ['a26161016162820203', '7b2261223a317d', '00', 'f6', '80', '9f01ff']) {
      expect(indexCrdtPatch(hex(h)).ok, h).toBe(false);
      expect(looksLikePatch(hex(h)), h).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------------------
// Errors: codes, offsets, partial trees
// ---------------------------------------------------------------------------------------

describe('crdt patch walker: errors', () => {
  // sid 100, time 1, no meta, 1 op: new_obj.
  const MIN = '6401f70110';

  it('the minimal patch', () => {
    const index = verifyPatch(hex(MIN));
    expect(index.value(0)).toEqual({ id: [100, 1], ops: [{ op: 'new_obj' }] });
  });

  const cases: [string, string, string, number][] = [
    ['empty', '', 'empty-input', 0],
    ['session 0', '0001f70110', 'implausible', 0],
    ['time 0', '6400f70110', 'implausible', 1],
    ['overlong session', '8000' + '01f70110', 'implausible', 0],
    ['truncated session', '80', 'truncated', 1],
    ['no meta', '6401', 'truncated', 2],
    ['meta not f7 / 81', '6401a00110', 'implausible', 2],
    ['meta CBOR truncated', '6401815a', 'truncated', 4],
    ['zero operations', '6401f700', 'implausible', 3],
    ['operation count beyond input', '6401f70510', 'length-exceeds-input', 3],
    ['unknown opcode 7', '6401f70138', 'unknown-opcode', 4],
    ['unknown opcode 18', '6401f70190', 'unknown-opcode', 4],
    ['new_obj with low bits', '6401f70111', 'unknown-opcode', 4],
    ['new_con with low bits 2', '6401f70102', 'unknown-opcode', 4],
    ['trailing byte', MIN + '00', 'trailing-bytes', 5],
    ['missing operand', '6401f7021048', 'truncated', 6],
    ['new_con reserved CBOR', '6401f701001c', 'reserved-additional-info', 5],
    ['new_con invalid UTF-8 text', '6401f7010061ff', 'invalid-utf8', 6],
    ['new_con "__proto__" key', '6401f70100a1695f5f70726f746f5f5f01', 'invalid-byte', 6],
    ['length 3 as a varint', '6401f701' + '60' + '03', 'implausible', 5],
    ['length 0 as a varint', '6401f7018800', 'implausible', 5],
    ['ins_val refers to its own time', '6401f7021048' + '0102', 'implausible', 7],
    ['ins_val refers to the future', '6401f7021048' + '0109', 'implausible', 7],
    ['own session written explicitly', '6401f702104881' + '64' + '01', 'implausible', 6],
    ['ins_str text beyond input', '6401f70220' + '630101' + '6162', 'length-exceeds-input', 5],
    ['ins_str invalid UTF-8', '6401f70220' + '620101' + 'c328', 'invalid-utf8', 8],
    ['ins_str lone surrogate (json-joy WTF-8)', '6401f70220' + '630101' + 'eda080', 'invalid-utf8', 8],
    ['ins_obj key not text', '6401f70210' + '5101' + '0101', 'implausible', 7],
    ['ins_obj key invalid UTF-8', '6401f70210' + '5101' + '61ff01', 'invalid-utf8', 8],
    ['ins_obj entries beyond input', '6401f70210' + '5701' + '616101', 'length-exceeds-input', 5],
    ['ins_vec index 24', '6401f70218' + '5901' + '1801', 'implausible', 7],
    ['del span 0', '6401f70320' + '630101616263' + '8101' + '0200', 'implausible', 13],
    ['del range not older', '6401f70320' + '630101616263' + '8101' + '0204', 'implausible', 13],
    ['nop length beyond 2^53', '6401f70188' + 'ffffffffffffffff', 'implausible', 5],
  ];
  for (const [name, h, code, offset] of cases) {
    it(`${name}: ${code} at ${offset}`, () => {
      const bytes = hex(h);
      const index = indexCrdtPatch(bytes);
      expect(index.error?.code, index.error?.message).toBe(code);
      expect(index.error?.offset, index.error?.message).toBe(offset);
      expect(index.error?.message).toMatch(/at byte \d+$/);
      expect(nestingProblems(index)).toEqual([]);
    });
  }

  it('an id time not in its shortest form is read (as json-joy reads it) with a warning at the id', () => {
    const index = indexCrdtPatch(hex('6401f7021048' + '4000' + '01'));
    expect(index.error).toBeNull();
    expect(index.warnings).toEqual([
      expect.objectContaining({ code: 'non-canonical', offset: 6, message: 'the id time is not in its shortest form' }),
    ]);
  });

  it('what json-joy makes of some of these (it reads them without complaint)', () => {
    // A 0-op varint length, a future reference, an explicit own session: json-joy decodes.
    expect(theirs(hex('6401f7021048' + '0109')).ops).toEqual([
      { op: 'new_obj' },
      { op: 'ins_val', obj: [100, 1], value: [100, 9] },
    ]);
    expect(theirs(hex('6401f702104881' + '64' + '01')).ops[1]).toEqual({
      op: 'ins_val',
      obj: [100, 1],
      value: [100, 1],
    });
    // A vec index >= 24 is written as a raw byte json-joy's own decoder misreads.
    const b = new PatchBuilder(new LogicalClock(123456, 5));
    const vec = b.vec();
    b.insVec(vec, [[24, vec]]);
    const bytes = plain(b.flush().toBinary());
    let readBack: unknown;
    try {
      readBack = theirs(bytes).ops[1];
    } catch {
      readBack = 'throws';
    }
    expect(readBack).not.toEqual({ op: 'ins_vec', obj: [123456, 5], value: [[24, [123456, 5]]] });
    expect(indexCrdtPatch(bytes).error?.code).toBe('implausible');
    // json-joy writes a lone surrogate of a short string as WTF-8 bytes ed a0 80.
    const w = new PatchBuilder(new LogicalClock(123456, 5));
    const str = w.str();
    w.insStr(str, str, '\ud800');
    const wtf = plain(w.flush().toBinary());
    expect(toHex(wtf)).toContain('eda080');
    expect(indexCrdtPatch(wtf).error?.code).toBe('invalid-utf8');
  });

  it('keeps the partial tree: complete ops before the error, open nodes incomplete', () => {
    const good = '6401f70320' + '630101616263';
    const index = indexCrdtPatch(hex(good + '38'));
    expect(index.error?.code).toBe('unknown-opcode');
    expect(index.error?.offset).toBe(11);
    expect(patchOps(index)).toEqual([
      { op: 'new_str' },
      { op: 'ins_str', obj: [100, 1], after: [100, 1], value: 'abc' },
    ]);
    expect(index.isIncomplete(0)).toBe(true);
    expect(index.store.end[0]).toBe(11);
    expect(index.value(0)).toEqual({ id: [100, 1], ops: patchOps(index) });

    const cut = indexCrdtPatch(hex(good.slice(0, -4)));
    expect(cut.error?.code).toBe('length-exceeds-input');
    const op = kids(cut, 0).filter((c) => cut.store.kind[c] === Kind.crdt_op)[1];
    expect(cut.isIncomplete(op)).toBe(true);
    expect(cut.value(op)).toBeUndefined();
    expect(cut.store.end[0]).toBe(cut.bytes.length);

    const bad = indexCrdtPatch(hex('6401f70220' + '620101' + 'c328'));
    const text = bad.store.size - 1;
    expect(bad.kind(text)).toBe('crdt_content');
    expect(bad.isIncomplete(text)).toBe(true);
    expect(bad.store.end[text]).toBe(10);
  });
});
