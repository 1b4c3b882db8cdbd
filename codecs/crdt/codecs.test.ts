/**
 * json-joy's JSON / CBOR / MessagePack-shaped CRDT codecs (codecs/crdt/codecs.ts):
 * round trips through every codec × clock against json-joy's own Model, detection accuracy
 * over a randomized corpus, and malformed frames that must never throw.
 */
import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { ArrNode, ObjNode, ValNode, VecNode, type JsonNode } from 'json-joy/lib/json-crdt/nodes/index.js';
import type { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { s } from 'json-joy/lib/json-crdt-patch/schema.js';
import { Timestamp } from 'json-joy/lib/json-crdt-patch/clock/clock.js';
import { encode as verboseEncode } from 'json-joy/lib/json-crdt-patch/codec/verbose/index.js';
import { encode as compactPatchEncode } from 'json-joy/lib/json-crdt-patch/codec/compact/index.js';
import { Encoder as IndexedEncoder } from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import { Encoder as CompactEncoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { peritext } from 'json-joy/lib/json-crdt-extensions/peritext/index.js';
import { quill } from 'json-joy/lib/json-crdt-extensions/quill-delta/index.js';
import {
  Encoder as VerboseModelEncoder,
  Decoder as VerboseModelDecoder,
} from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import { Decoder as CompactDecoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder';
import { JsonEncoder } from '@jsonjoy.com/json-pack/lib/json/JsonEncoder';
import { JsonDecoder } from '@jsonjoy.com/json-pack/lib/json/JsonDecoder';
import { CrdtWriter } from 'json-joy/lib/json-crdt-patch/util/binary/CrdtWriter.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder';
import { editedModel, makeRng, randomJson, seedPayloads, type Rng } from './corpus.js';
import {
  CRDT_CONFIDENCE_THRESHOLD,
  CRDT_MODEL_CODECS,
  CRDT_PATCH_CODECS,
  decodeCrdt,
  decodeModel,
  decodePatch,
  detectCrdtCodec,
  encodeModel,
  encodePatch,
  type CrdtModelCodec,
  type CrdtModelSummary,
  type CrdtNodeSummary,
  type CrdtPatchCodec,
} from './codecs.js';

const CLOCKS = ['logical', 'server'] as const;
const cbor = (v: unknown) => new CborEncoder().encode(v).slice();
const msgpack = (v: unknown) => new MsgPackEncoder().encode(v).slice();
const utf8 = (t: string) => new TextEncoder().encode(t);
const jsonPack = (v: unknown) => new JsonEncoder(new CrdtWriter()).encode(v).slice();
const idText = (id: { sid: number; time: number }) => `${id.sid}.${id.time}`;

/** Nodes json-joy reaches from the root, walked with its own node classes. */
function jsonJoyNodes(model: Model): { ids: string[]; extensions: string[] } {
  const ids: string[] = [];
  const extensions: string[] = [];
  if (model.root.val.sid === 0) return { ids, extensions };
  const stack: JsonNode[] = [model.root.node()];
  while (stack.length) {
    const node = stack.pop()!;
    ids.push(idText(node.id));
    if (node instanceof VecNode && node.getExtId() >= 0) extensions.push(idText(node.id));
    if (node instanceof ValNode) stack.push(node.node());
    else if (node instanceof ObjNode) node.nodes((c) => stack.push(c));
    else if (node instanceof VecNode) node.children((c) => stack.push(c));
    else if (node instanceof ArrNode) node.children((c) => stack.push(c));
  }
  return { ids, extensions };
}

function summaryNodes(root: CrdtNodeSummary | null): CrdtNodeSummary[] {
  const out: CrdtNodeSummary[] = [];
  const stack = root ? [root] : [];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    for (const c of n.children ?? []) if (c) stack.push(c);
    for (const e of n.entries ?? []) stack.push(e.node);
  }
  return out;
}

/** Sessions the summary mentions (node, chunk and element ids, timestamp constants). */
function sessionsOf(summary: CrdtModelSummary): Set<number> {
  const out = new Set<number>();
  const add = (id: string) => out.add(Number(id.split('.')[0]));
  for (const n of summaryNodes(summary.nodes)) {
    add(n.id);
    for (const c of n.chunks ?? []) {
      add(c.id);
      c.nodes?.forEach(add);
    }
    const ts = (n.value as { timestamp?: unknown } | undefined)?.timestamp;
    if (n.type === 'con' && typeof ts === 'string') add(ts);
  }
  return out;
}

/**
 * A canonical text of a view (sorted keys; bytes, undefined and bigint spelled out), so
 * large views compare quickly and regardless of key order (the sidecar codec sorts keys).
 */
function canon(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `bytes(${Array.from(v).join(',')})`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function checkModelSummary(model: Model, codec: CrdtModelCodec, summary: CrdtModelSummary): void {
  expect(summary.codec).toBe(codec);
  expect(canon(summary.view)).toBe(canon(model.view()));
  const truth = jsonJoyNodes(model);
  const nodes = summaryNodes(summary.nodes);
  expect(summary.nodeCount).toBe(truth.ids.length);
  expect(nodes.map((n) => n.id).sort()).toEqual([...truth.ids].sort());
  // Only the indexed codec carries nodes the root does not reach (json-joy's index keeps some).
  const reachable = new Set(truth.ids);
  const unreachable: string[] = [];
  model.index.forEach(({ v }) => {
    if (!reachable.has(idText(v.id))) unreachable.push(idText(v.id));
  });
  expect([...summary.detached].sort()).toEqual(codec === 'indexed' ? unreachable.sort() : []);
  expect(summary.extensions.map((e) => e.nodeId).sort()).toEqual([...truth.extensions].sort());
  const server = model.clock.sid === 1;
  expect(summary.clock).toBe(server ? 'server' : 'logical');
  if (server) {
    expect(summary.clockTable).toEqual({ serverTime: model.clock.time });
    return;
  }
  const table = summary.clockTable as { sid: number; time: number }[];
  expect(table[0]).toEqual({ sid: model.clock.sid, time: model.clock.time });
  for (const e of table.slice(1)) expect(model.clock.peers.get(e.sid)?.time).toBe(e.time);
  const listed = new Set(table.map((e) => e.sid));
  // Compact and sidecar list the sessions the document uses; verbose and indexed every peer.
  const expected =
    codec === 'verbose' || codec === 'indexed' ? [...model.clock.peers.keys()] : [...sessionsOf(summary)];
  for (const sid of expected) if (sid > 1) expect(listed.has(sid), `session ${sid} in the clock table`).toBe(true);
}

function roundTripModel(model: Model, label: string): void {
  for (const codec of CRDT_MODEL_CODECS) {
    const bytes = encodeModel(model, codec, model.clock.sid === 1 ? 'server' : 'logical');
    const r = decodeModel(bytes, codec);
    if (!r.ok) throw new Error(`${label} ${codec}: ${r.error.message}`);
    checkModelSummary(model, codec, r.summary);
  }
}

function checkPatch(patch: Patch, codec: CrdtPatchCodec): void {
  const r = decodePatch(encodePatch(patch, codec), codec);
  if (!r.ok) throw new Error(`${codec}: ${r.error.message}`);
  const verbose = verboseEncode(patch);
  expect(r.summary.ops).toEqual(verbose.ops);
  expect(r.summary.id).toBe(idText(patch.getId()!));
  expect(r.summary.meta).toEqual(patch.meta);
  expect(r.summary.span).toBe(patch.span());
  expect(r.summary.clock).toBe(patch.getId()!.sid === 1 ? 'server' : 'logical');
}

describe('json-joy CRDT codecs: round trips', () => {
  for (const clock of CLOCKS) {
    it(`edited models, every codec, ${clock} clock`, () => {
      for (let seed = 1; seed <= 12; seed++) {
        const { model } = editedModel(seed, { clock, sessions: 2 + (seed % 4), edits: 20 + seed * 5 });
        roundTripModel(model, `seed ${seed}`);
      }
    });

    it(`the ten seed payloads as models, every codec, ${clock} clock`, () => {
      const payloads = seedPayloads();
      expect(payloads).toHaveLength(10);
      for (const [i, p] of payloads.entries()) {
        const model = clock === 'server' ? Model.withServerClock(undefined, 1) : Model.create(undefined, 0x10000 + i);
        model.api.set(p.data);
        roundTripModel(model, p.name);
        // And edited concurrently, with the payload as the initial document (the 45 kB one
        // only once, to keep the suite fast).
        if (JSON.stringify(p.data).length < 20000 || clock === 'logical')
          roundTripModel(
            editedModel(100 + i, { clock, sessions: 3, edits: 25, initial: p.data }).model,
            `${p.name} edited`,
          );
      }
    });

    it(`patches of the edit sequences, every codec, ${clock} clock`, () => {
      let count = 0;
      for (let seed = 1; seed <= 10; seed++) {
        const { patches } = editedModel(seed, { clock, sessions: 2 + (seed % 4), edits: 40 });
        patches.forEach((p, i) => {
          if (i % 5 === 1) p.meta = { user: `u${seed}`, n: i, tags: ['x'] };
          for (const codec of CRDT_PATCH_CODECS) checkPatch(p, codec);
          count++;
        });
      }
      expect(count).toBeGreaterThan(100);
    });
  }

  it('special nodes: empty documents, timestamp and undefined constants, unset vec slots, extensions', () => {
    roundTripModel(Model.create(undefined, 123456), 'empty logical');
    roundTripModel(Model.withServerClock(undefined, 5), 'empty server');
    const m = Model.create(undefined, 123456);
    m.api.set({
      ref: s.con(new Timestamp(123456, 1)),
      undef: s.con(undefined),
      v: s.vec(s.con(1), undefined as never, s.con(2)),
      text: peritext.new('hello'),
      q: quill.new('x'),
    });
    roundTripModel(m, 'special');
    for (const codec of CRDT_MODEL_CODECS) {
      const r = decodeModel(encodeModel(m, codec), codec);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.summary.extensions.map((e) => e.name).sort()).toEqual(['peritext', 'quill']);
      const ref = r.summary.nodes!.entries!.find((e) => e.key === 'ref')!.node;
      expect(ref.value).toEqual({ timestamp: '123456.1' });
    }
    const empty = decodeModel(encodeModel(Model.create(undefined, 123456), 'verbose'), 'verbose');
    expect(empty.ok && empty.summary.nodes === null && empty.summary.view === undefined).toBe(true);
  });

  it('RGA chunks report ids, lengths and tombstones', () => {
    const m = Model.create(undefined, 777777);
    m.api.set({ t: 'hello world', a: [1, 2, 3], b: new Uint8Array([1, 2, 3, 4]) });
    m.api.str(['t']).del(0, 6);
    m.api.arr(['a']).del(1, 1);
    m.api.bin(['b']).del(1, 2);
    m.api.flush();
    for (const codec of CRDT_MODEL_CODECS) {
      const r = decodeModel(encodeModel(m, codec), codec);
      if (!r.ok) throw new Error(r.error.message);
      const entry = (k: string) => r.summary.nodes!.entries!.find((e) => e.key === k)!.node;
      const t = entry('t');
      expect(t.type).toBe('str');
      expect(t.chunks!.filter((c) => c.deleted).reduce((n, c) => n + c.length, 0)).toBe(6);
      expect(
        t
          .chunks!.filter((c) => !c.deleted)
          .map((c) => c.text)
          .join(''),
      ).toBe('world');
      expect(entry('a').chunks!.some((c) => c.deleted && c.length === 1)).toBe(true);
      expect(entry('a').children!.length).toBe(2);
      expect(
        entry('b')
          .chunks!.filter((c) => c.deleted)
          .reduce((n, c) => n + c.length, 0),
      ).toBe(2);
      expect(r.summary.view).toEqual({ t: 'world', a: [1, 3], b: new Uint8Array([1, 4]) });
    }
  });

  it('a __proto__ key stays an own key (indexed and sidecar keep it; json-joy structural encoders lose it)', () => {
    const m = Model.create(undefined, 123456);
    m.api.set(JSON.parse('{"__proto__": {"x": 1}, "a": "b"}'));
    for (const codec of ['indexed', 'sidecar'] as const) {
      const r = decodeModel(encodeModel(m, codec), codec);
      if (!r.ok) throw new Error(r.error.message);
      const view = r.summary.view as Record<string, unknown>;
      expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
      expect(Object.keys(view)).toEqual(['__proto__', 'a']);
    }
  });
});

// ---------------------------------------------------------------------------------------

interface Sample {
  readonly bytes: Uint8Array;
  readonly isText: boolean;
  /** `model/compact`, `patch/verbose`, ... or null for data that is not one of these codecs. */
  readonly truth: string | null;
  readonly group: 'model' | 'patch' | 'plain' | 'binary-crdt';
}

function randomPlain(rng: Rng): unknown {
  const r = rng();
  const size = rng.range(1, 60);
  if (r < 0.7) return randomJson(rng, size);
  // Shapes that look a little like the codecs: arrays of arrays of numbers, objects with id/ops/time/root keys.
  if (r < 0.8)
    return [[rng.int(100), rng.int(100)], ...Array.from({ length: rng.int(4) }, () => [rng.int(20), rng.int(10)])];
  if (r < 0.9) return { id: [rng.int(1e6), rng.int(1000)], ops: randomJson(rng, 5), time: rng.int(100) };
  return { time: [[rng.range(1, 1e6), rng.int(100)]], root: randomJson(rng, size) };
}

function corpus(): Sample[] {
  const out: Sample[] = [];
  for (let seed = 1; seed <= 50; seed++) {
    const clock = CLOCKS[seed % 2];
    const { model, patches } = editedModel(1000 + seed, {
      clock,
      sessions: 2 + (seed % 4),
      edits: 5 + (seed % 30),
      size: 3 + (seed % 20),
      extensions: seed % 3 !== 0,
    });
    for (const codec of CRDT_MODEL_CODECS)
      out.push({
        bytes: encodeModel(model, codec),
        isText: codec === 'compact' || codec === 'verbose',
        truth: `model/${codec}`,
        group: 'model',
      });
    for (const p of patches.slice(0, 12)) {
      for (const codec of CRDT_PATCH_CODECS)
        out.push({
          bytes: encodePatch(p, codec),
          isText: codec !== 'compact-binary',
          truth: `patch/${codec}`,
          group: 'patch',
        });
      out.push({ bytes: p.toBinary(), isText: false, truth: null, group: 'binary-crdt' });
    }
    out.push({ bytes: model.toBinary(), isText: false, truth: null, group: 'binary-crdt' });
  }
  const rng = makeRng(4242);
  for (let i = 0; i < 1200; i++) {
    const v = randomPlain(rng);
    out.push({ bytes: utf8(JSON.stringify(v)), isText: true, truth: null, group: 'plain' });
    out.push({ bytes: cbor(v), isText: false, truth: null, group: 'plain' });
    out.push({ bytes: msgpack(v), isText: false, truth: null, group: 'plain' });
  }
  for (const p of seedPayloads()) {
    out.push({ bytes: utf8(JSON.stringify(p.data)), isText: true, truth: null, group: 'plain' });
    out.push({ bytes: cbor(p.data), isText: false, truth: null, group: 'plain' });
  }
  return out;
}

describe('json-joy CRDT codecs: other carriers', () => {
  it('reads each codec from the carriers it allows', () => {
    const m = Model.create(undefined, 424242);
    m.api.set({
      title: 'hello',
      list: [1, 'two', { three: 3 }],
      blob: new Uint8Array([9, 8, 7]),
      pos: s.vec(s.con(1), s.con(2)),
    });
    m.api.str(['title']).del(1, 2);
    m.api.flush();
    const view = m.view();
    const expectModel = (bytes: Uint8Array, codec: CrdtModelCodec, carrier: string) => {
      const r = decodeModel(bytes, codec);
      if (!r.ok) throw new Error(`${codec} over ${carrier}: ${r.error.message}`);
      expect(r.summary.carrier).toBe(carrier);
      expect(canon(r.summary.view)).toBe(canon(view));
      expect(decodeCrdt(bytes)).toMatchObject({ kind: 'model', codec, carrier });
    };
    const indexed = new IndexedEncoder().encode(m);
    expectModel(msgpack(indexed), 'indexed', 'msgpack');
    expectModel(jsonPack(indexed), 'indexed', 'json');
    expectModel(cbor(new VerboseModelEncoder().encode(m)), 'verbose', 'cbor');
    expectModel(msgpack(new VerboseModelEncoder().encode(m)), 'verbose', 'msgpack');
    // Sidecar: the view as its own byte string, and the whole pair in MessagePack.
    const frame = encodeModel(m, 'sidecar');
    const viewLength = cbor(view).length;
    const viewBytes = frame.slice(1, 1 + viewLength);
    const metaBytes = frame.slice(1 + viewLength);
    const meta = new Uint8Array(metaBytes.slice(metaBytes[0] === 0x58 ? 2 : metaBytes[0] === 0x59 ? 3 : 1));
    expectModel(cbor([viewBytes, meta]), 'sidecar', 'cbor');
    expectModel(msgpack([view, meta]), 'sidecar', 'msgpack');
    const { patches } = editedModel(3, { clock: 'logical', edits: 8 });
    const p = patches[patches.length - 1];
    for (const [bytes, codec, carrier] of [
      [msgpack(verboseEncode(p)), 'verbose', 'msgpack'],
      [cbor(verboseEncode(p)), 'verbose', 'cbor'],
      [msgpack(compactPatchEncode(p)), 'compact', 'msgpack'],
    ] as const) {
      const r = decodePatch(bytes, codec);
      if (!r.ok) throw new Error(`${codec} over ${carrier}: ${r.error.message}`);
      expect(r.summary.carrier).toBe(carrier);
      expect(r.summary.ops).toEqual(verboseEncode(p).ops);
    }
  });
});

describe('json-joy CRDT codecs: detection', () => {
  it('picks the right codec across a randomized corpus (accuracy >= 99.9 %)', () => {
    const samples = corpus();
    const groups = new Map<string, { ok: number; n: number }>();
    const misses: string[] = [];
    for (const s of samples) {
      const best = detectCrdtCodec(s.bytes, { isText: s.isText })[0];
      const said = best && best.confidence >= CRDT_CONFIDENCE_THRESHOLD ? `${best.kind}/${best.codec}` : null;
      const g = groups.get(s.group) ?? { ok: 0, n: 0 };
      g.n++;
      if (said === s.truth) g.ok++;
      else misses.push(`${s.group}: expected ${s.truth}, got ${said} (${best?.confidence})`);
      groups.set(s.group, g);
      // The same answer when the text/binary hint is wrong (JSON frames sent as binary).
      if (s.truth && s.isText) expect(decodeCrdt(s.bytes, { isText: false })?.codec).toBe(s.truth.split('/')[1]);
    }
    const ok = [...groups.values()].reduce((n, g) => n + g.ok, 0);
    const accuracy = ok / samples.length;
    const parts = [...groups.entries()].map(([k, g]) => `${k} ${g.ok}/${g.n}`).join(', ');
    console.log(
      `crdt codec detection accuracy: ${ok}/${samples.length} = ${(accuracy * 100).toFixed(2)} % (${parts})${misses.length ? `; misses: ${misses.slice(0, 5).join('; ')}` : ''}`,
    );
    expect(accuracy).toBeGreaterThanOrEqual(0.999);
  });

  it('ranks several readings when a frame fits more than one', () => {
    // A compact model read from CBOR (not its canonical carrier) is still found, as compact.
    const { model } = editedModel(7, { clock: 'logical', edits: 10 });
    const found = detectCrdtCodec(cbor(new CompactEncoder().encode(model)));
    expect(found[0]).toMatchObject({ kind: 'model', codec: 'compact', carrier: 'cbor' });
    expect(found[0].confidence).toBeGreaterThanOrEqual(CRDT_CONFIDENCE_THRESHOLD);
    // An empty patch and an empty document decode, with low confidence only.
    for (const tiny of [[[5]], [5, 0], [[123456, 1], 0]]) {
      const c = detectCrdtCodec(utf8(JSON.stringify(tiny)), { isText: true });
      expect(c.length).toBeGreaterThan(0);
      expect(c.every((x) => x.confidence < CRDT_CONFIDENCE_THRESHOLD)).toBe(true);
    }
    // Compact patches travel in MessagePack too.
    const { patches } = editedModel(8, { clock: 'server', edits: 10 });
    expect(detectCrdtCodec(msgpack(compactPatchEncode(patches[1])))[0]).toMatchObject({
      kind: 'patch',
      codec: 'compact',
      carrier: 'msgpack',
      clock: 'server',
    });
  });
});

// ---------------------------------------------------------------------------------------

describe('json-joy CRDT codecs: malformed frames', () => {
  it('truncated and mutated frames never throw', () => {
    const rng = makeRng(99);
    let frames = 0;
    let stillValid = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const { model, patches } = editedModel(500 + seed, { clock: CLOCKS[seed % 2], edits: 15 });
      const items: [Uint8Array, (b: Uint8Array) => { ok: boolean }][] = [];
      for (const codec of CRDT_MODEL_CODECS) items.push([encodeModel(model, codec), (b) => decodeModel(b, codec)]);
      for (const codec of CRDT_PATCH_CODECS)
        items.push([encodePatch(patches[patches.length - 1], codec), (b) => decodePatch(b, codec)]);
      for (const [bytes, decode] of items) {
        const variants: Uint8Array[] = [];
        for (let k = 0; k < 12; k++) variants.push(bytes.slice(0, Math.floor((bytes.length * k) / 12)));
        for (let k = 0; k < 25; k++) {
          const m = bytes.slice();
          for (let j = rng.range(1, 3); j > 0; j--)
            m[rng.int(m.length)] = rng.bool(0.5) ? rng.int(256) : m[rng.int(m.length)];
          variants.push(m);
        }
        for (const v of variants) {
          frames++;
          let r: { ok: boolean } | undefined;
          expect(() => (r = decode(v))).not.toThrow();
          expect(() => detectCrdtCodec(v)).not.toThrow();
          expect(() => detectCrdtCodec(v, { isText: true })).not.toThrow();
          if (r?.ok) stillValid++;
        }
      }
    }
    console.log(`malformed crdt frames: ${frames} decoded without throwing, ${stillValid} still valid after mutation`);
  });

  it('structure-aware mutations never throw; what is accepted agrees with json-joy', () => {
    const rng = makeRng(2024);
    /** Every container and leaf position in a value: [parent, key]. */
    const positions = (root: unknown): [unknown[] | Record<string, unknown>, string | number][] => {
      const out: [unknown[] | Record<string, unknown>, string | number][] = [];
      const stack: unknown[] = [root];
      while (stack.length) {
        const v = stack.pop();
        if (Array.isArray(v))
          v.forEach((c, i) => {
            out.push([v, i]), stack.push(c);
          });
        else if (v && typeof v === 'object' && !(v instanceof Uint8Array))
          for (const k of Object.keys(v))
            out.push([v as Record<string, unknown>, k]), stack.push((v as Record<string, unknown>)[k]);
      }
      return out;
    };
    const mutate = (value: unknown): unknown => {
      const copy = new JsonDecoder().decode(jsonPack(value));
      const spots = positions(copy);
      for (let n = rng.range(1, 3); n > 0 && spots.length; n--) {
        const [parent, key] = rng.pick(spots);
        const cur = (parent as Record<string | number, unknown>)[key];
        const r = rng.int(6);
        const set = (v: unknown) => ((parent as Record<string | number, unknown>)[key] = v);
        if (typeof cur === 'number')
          set(r === 0 ? cur + 1 : r === 1 ? cur - 1 : r === 2 ? -cur : r === 3 ? 0 : r === 4 ? 2 ** 60 : 'x');
        else if (Array.isArray(cur) && cur.length) {
          if (r < 2) cur.splice(rng.int(cur.length), 1);
          else if (r < 4) cur.push(cur[rng.int(cur.length)]);
          else cur.reverse();
        } else if (Array.isArray(parent) && r < 3) parent.splice(key as number, 1);
        else set(r < 2 ? null : r < 4 ? [] : 7);
      }
      return copy;
    };
    let accepted = 0;
    let total = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { model, patches } = editedModel(700 + seed, { clock: CLOCKS[seed % 2], edits: 12, size: 6 });
      const docs: [CrdtModelCodec, unknown, (v: unknown) => Model][] = [
        ['compact', new CompactEncoder().encode(model), (v) => new CompactDecoder().decode(v as never)],
        ['verbose', new VerboseModelEncoder().encode(model), (v) => new VerboseModelDecoder().decode(v as never)],
      ];
      for (const [codec, value, jsonJoy] of docs) {
        for (let k = 0; k < 25; k++) {
          const m = mutate(value);
          const bytes = jsonPack(m);
          total++;
          let r: ReturnType<typeof decodeModel> | undefined;
          expect(() => (r = decodeModel(bytes, codec))).not.toThrow();
          expect(() => detectCrdtCodec(bytes, { isText: true })).not.toThrow();
          if (!r!.ok) continue;
          accepted++;
          // Accepted: json-joy's own decoding of the same value has the same view and nodes.
          const theirs = jsonJoy(new JsonDecoder().decode(bytes));
          expect(canon(r!.summary.view)).toBe(canon(theirs.view()));
          expect(r!.summary.nodeCount).toBe(jsonJoyNodes(theirs).ids.length);
        }
      }
      for (const p of patches.slice(1, 6)) {
        for (const codec of CRDT_PATCH_CODECS) {
          const value = codec === 'verbose' ? verboseEncode(p) : compactPatchEncode(p);
          for (let k = 0; k < 6; k++) {
            const m = mutate(value);
            const bytes = codec === 'compact-binary' ? cbor(m) : jsonPack(m);
            total++;
            let r: ReturnType<typeof decodePatch> | undefined;
            expect(() => (r = decodePatch(bytes, codec))).not.toThrow();
            if (r!.ok) accepted++;
          }
        }
      }
    }
    console.log(`structure-aware crdt mutations: ${total} decoded without throwing, ${accepted} accepted`);
  });

  it('rejects what json-joy would decode into garbage, with a message and an offset', () => {
    const expectError = (r: { ok: boolean; error?: { message: string; offset?: number } }, pattern: RegExp) => {
      expect(r.ok).toBe(false);
      expect(r.error!.message).toMatch(pattern);
      expect(typeof r.error!.offset).toBe('number');
    };
    // Compact: a session index beyond the clock table, a deep chain, an unknown node type.
    const outOfTable = decodeModel(utf8('[[123456,5],[4,[-2,0],[]]]'), 'compact');
    expectError(outOfTable, /beyond the clock table/);
    expect(!outOfTable.ok && outOfTable.error.offset).toBe(15); // the `[-2,0]`
    let deep = '[0,1,null]';
    for (let i = 0; i < 3000; i++) deep = `[1,${i + 2},${deep}]`;
    expectError(decodeModel(utf8(`[10000,${deep}]`), 'compact'), /nesting too deep/);
    expectError(decodeModel(utf8('[[123456,5],[9,[-1,0],0]]'), 'compact'), /not a compact node/);
    // Verbose: unknown keys.
    expectError(
      decodeModel(
        utf8('{"time":5,"root":{"type":"val","id":[0,0],"value":{"type":"con","id":3,"extra":1}}}'),
        'verbose',
      ),
      /unknown key/,
    );
    // Indexed: a cycle, a dangling reference, a truncated clock table.
    const m = Model.create(undefined, 123456);
    m.api.set({ a: [1, 2] });
    const fields = new IndexedEncoder().encode(m) as unknown as Record<string, Uint8Array>;
    const names = Object.keys(fields).filter((k) => k.includes('_'));
    const cyc = { ...fields };
    const rootName = names.find((n) => fields[n][0] >> 5 === 2)!; // the obj
    const valName = names.find((n) => fields[n][0] >> 5 === 6)!; // the arr
    cyc[valName] = Uint8Array.of(0x20, ...fields.r); // arr field rewritten as a val pointing at the root obj
    expectError(decodeModel(cbor(cyc), 'indexed'), /referenced twice|twice/);
    const dangling = { ...fields };
    delete dangling[valName];
    expectError(decodeModel(cbor(dangling), 'indexed'), /missing node/);
    expectError(decodeModel(cbor({ ...fields, c: fields.c.slice(0, 2) }), 'indexed'), /unexpected end|clock/);
    expect(rootName).toBeTruthy();
    // Sidecar: a view that does not match the meta.
    const frame = encodeModel(m, 'sidecar');
    const r = decodeModel(frame, 'sidecar');
    expect(r.ok).toBe(true);
    const view = cbor({ a: [1, 2, 3] });
    const metaStart = 1 + cbor({ a: [1, 2] }).length;
    const wrong = Uint8Array.from([0x82, ...view, ...frame.slice(metaStart)]);
    expectError(decodeModel(wrong, 'sidecar'), /view|span/);
    // Patches: an empty insert, an unknown opcode, a bad timespan.
    expectError(decodePatch(utf8('[[[123456,1]],[12,1,1,""]]'), 'compact'), /empty/);
    expectError(decodePatch(utf8('[[[123456,1]],[42]]'), 'compact'), /unknown opcode/);
    expectError(
      decodePatch(utf8('{"id":[123456,1],"ops":[{"op":"del","obj":[1,2],"what":[[1,2,0]]}]}'), 'verbose'),
      /timespan/,
    );
    // Deeply nested plain frames: refused without a stack overflow.
    const nested = utf8('['.repeat(20000) + ']'.repeat(20000));
    const nestedCbor = new Uint8Array(20001).fill(0x81);
    nestedCbor[20000] = 0x00;
    for (const f of [nested, nestedCbor]) {
      expect(detectCrdtCodec(f)).toEqual([]);
      for (const codec of CRDT_MODEL_CODECS) expect(decodeModel(f, codec).ok).toBe(false);
      for (const codec of CRDT_PATCH_CODECS) expect(decodePatch(f, codec).ok).toBe(false);
    }
    // Not even the carrier.
    expectError(decodeModel(Uint8Array.of(0xff, 0x00), 'compact-binary'), /not msgpack/);
    expectError(decodePatch(new Uint8Array(0), 'verbose'), /./);
  });
});
