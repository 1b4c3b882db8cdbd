import { describe, expect, test } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import { makeRng, type Rng } from '../core/rng.js';
import { SpanIndex } from '../core/span-index.js';
import { decodeFrame } from '../index.js';
import { yjsMessage, yjsWalker } from './walker.js';
import type { YjsContent, YjsId, YjsStruct } from './update-v1.js';
import { spanTilingProblem } from './test-support.js';

/** Random edits on several Y.Docs that sync now and then; every update event and a final state are the frames. */
function editSession(seed: number): { frames: Uint8Array[]; docs: Y.Doc[] } {
  const rng = makeRng(seed);
  const gc = rng.bool(0.5);
  const docs = Array.from({ length: rng.range(1, 3) }, (_, i) => {
    const doc = new Y.Doc({ gc });
    doc.clientID = rng.bool(0.3) ? 2 ** 32 - 1 - i : rng.range(1, 5000) * 31 + i;
    return doc;
  });
  const frames: Uint8Array[] = [];
  for (const doc of docs)
    doc.on('update', (update: Uint8Array) => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeUpdate(e, update);
      frames.push(encoding.toUint8Array(e));
    });
  const steps = rng.range(3, 25);
  for (let s = 0; s < steps; s++) {
    const doc = rng.pick(docs);
    if (rng.bool(0.2) && docs.length > 1) {
      const other = rng.pick(docs);
      Y.applyUpdate(other, Y.encodeStateAsUpdate(doc, Y.encodeStateVector(other)));
      continue;
    }
    doc.transact(() => {
      for (let n = rng.range(1, 3); n > 0; n--) edit(doc, rng);
    });
  }
  for (const doc of docs) {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeSyncStep2(e, doc, new Uint8Array([0]));
    frames.push(encoding.toUint8Array(e));
    const step1 = encoding.createEncoder();
    encoding.writeVarUint(step1, 0);
    syncProtocol.writeSyncStep1(step1, doc);
    frames.push(encoding.toUint8Array(step1));
  }
  return { frames, docs };
}

const WORDS = ['a', 'hello', 'ü', '😀x', '日本語', ' ', 'line\n'];

function anyValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 7 : 9)) {
    case 0:
      return rng.range(-100000, 100000);
    case 1:
      return rng() * 1e6 - 5e5;
    case 2:
      return rng.pick(WORDS);
    case 3:
      return rng.bool();
    case 4:
      return null;
    case 5: {
      // Yjs takes a bigint inside an object or array only.
      const big = BigInt(rng.range(-1e9, 1e9)) * 1000000n;
      return depth === 0 ? { big } : big;
    }
    case 6:
      return 2 ** 40 + rng.int(1000);
    case 7:
      return Array.from({ length: rng.int(4) }, () => anyValue(rng, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: rng.int(4) }, (_, i) => [`k${i}`, anyValue(rng, depth + 1)]));
  }
}

/** Every shared type reachable from the document's root types. */
function types(doc: Y.Doc): Y.AbstractType<any>[] {
  const out: Y.AbstractType<any>[] = [
    doc.getText('text'),
    doc.getMap('map'),
    doc.getArray('list'),
    doc.getXmlFragment('xml'),
  ];
  for (let i = 0; i < out.length && out.length < 40; i++) {
    const t = out[i];
    const children =
      t instanceof Y.Map ? [...t.values()] : t instanceof Y.Array || t instanceof Y.XmlFragment ? t.toArray() : [];
    for (const c of children) if (c instanceof Y.AbstractType) out.push(c);
  }
  return out;
}

function edit(doc: Y.Doc, rng: Rng): void {
  const t = rng.pick(types(doc));
  if (t instanceof Y.Text) {
    const len = t.length;
    const r = rng.int(10);
    if (r < 5 || len === 0) t.insert(rng.int(len + 1), rng.pick(WORDS), rng.bool(0.2) ? { bold: true } : undefined);
    else if (r < 8) t.delete(rng.int(len), rng.range(1, Math.max(1, Math.min(3, len))));
    else if (r < 9) t.format(rng.int(len), rng.range(1, len), { italic: rng.bool() ? true : null });
    else t.insertEmbed(rng.int(len + 1), { image: rng.pick(WORDS) });
  } else if (t instanceof Y.Map) {
    const key = `k${rng.int(6)}`;
    const r = rng.int(10);
    if (r < 4) t.set(key, anyValue(rng));
    else if (r < 5) t.set(key, new Uint8Array(Array.from({ length: rng.int(6) }, () => rng.int(256))));
    else if (r < 6) t.set(key, new Y.Map());
    else if (r < 7) t.set(key, new Y.Array());
    else if (r < 8) t.set(key, new Y.Text(rng.pick(WORDS)));
    else if (r < 9 && rng.bool(0.3)) t.set(key, new Y.Doc());
    else t.delete(key);
  } else if (t instanceof Y.Array) {
    const len = t.length;
    const r = rng.int(10);
    if (r < 5 || len === 0)
      t.insert(
        rng.int(len + 1),
        Array.from({ length: rng.range(1, 3) }, () => anyValue(rng)),
      );
    else if (r < 7) t.delete(rng.int(len), 1);
    else if (r < 8) t.push([new Y.Map()]);
    else if (r < 9) t.push([new Uint8Array([rng.int(256)])]);
    else t.insert(0, [new Y.Array()]);
  } else if (t instanceof Y.XmlFragment) {
    const len = t.length;
    if (len > 0 && rng.bool(0.3)) t.delete(rng.int(len), 1);
    else if (rng.bool()) t.insert(rng.int(len + 1), [new Y.XmlElement(rng.pick(['p', 'h1', 'li']))]);
    else t.insert(rng.int(len + 1), [new Y.XmlText(rng.pick(WORDS))]);
    if (t instanceof Y.XmlElement && rng.bool(0.3)) t.setAttribute('class', rng.pick(WORDS));
  }
}

const TYPE_NAMES = new Map<unknown, string>([
  [Y.Array, 'YArray'],
  [Y.Map, 'YMap'],
  [Y.Text, 'YText'],
  [Y.XmlElement, 'YXmlElement'],
  [Y.XmlFragment, 'YXmlFragment'],
  [Y.XmlHook, 'YXmlHook'],
  [Y.XmlText, 'YXmlText'],
]);

const id = (x: { client: number; clock: number } | null): YjsId | null => (x ? [x.client, x.clock] : null);

/** Yjs's own reading of a struct, in the walker's terms. */
function referenceStruct(s: Y.Item | Y.GC | InstanceType<typeof Y.Skip>): Omit<YjsStruct, 'node'> {
  const base = { client: s.id.client, clock: s.id.clock, length: s.length };
  if (!(s instanceof Y.Item))
    return {
      ...base,
      struct: s instanceof Y.GC ? 'gc' : 'skip',
      origin: null,
      rightOrigin: null,
      parent: null,
      parentSub: null,
      content: null,
    };
  const c = s.content as unknown as Record<string, unknown>;
  let content: YjsContent;
  if (c instanceof Y.ContentString) content = { type: 'string', value: c.str };
  else if (c instanceof Y.ContentAny) content = { type: 'any', values: c.arr };
  else if (c instanceof Y.ContentJSON) content = { type: 'json', values: c.arr };
  else if (c instanceof Y.ContentBinary) content = { type: 'binary', value: c.content };
  else if (c instanceof Y.ContentEmbed) content = { type: 'embed', value: c.embed };
  else if (c instanceof Y.ContentFormat) content = { type: 'format', key: c.key, value: c.value };
  else if (c instanceof Y.ContentDeleted) content = { type: 'deleted', length: c.len };
  else if (c instanceof Y.ContentDoc) content = { type: 'doc', guid: c.doc!.guid, opts: c.opts };
  else if (c instanceof Y.ContentType) {
    const t = c.type as unknown as { nodeName?: string; hookName?: string; constructor: unknown };
    const typeName = TYPE_NAMES.get(t.constructor)!;
    const nodeName = typeName === 'YXmlElement' ? t.nodeName : typeName === 'YXmlHook' ? t.hookName : undefined;
    content = nodeName === undefined ? { type: 'type', typeName } : { type: 'type', typeName, nodeName };
  } else throw new Error(`unexpected content ${c.constructor}`);
  const parent = s.parent as unknown;
  return {
    ...base,
    struct: 'item',
    origin: id(s.origin),
    rightOrigin: id(s.rightOrigin),
    parent: typeof parent === 'string' ? parent : parent ? id(parent as { client: number; clock: number }) : null,
    parentSub: s.parentSub,
    content,
  };
}

function walkerStructs(index: SpanIndex): Omit<YjsStruct, 'node'>[] {
  const m = yjsMessage(index);
  return (m?.update?.clients ?? []).flatMap((c) => c.structs.map(({ node: _, ...s }) => s));
}

describe('Yjs updates read by the walker equal Y.decodeUpdate', () => {
  test('random edit sessions on text, maps, arrays, XML and nested types, several clients: structs, delete set, spans', () => {
    let frames = 0;
    let structs = 0;
    const seen = new Set<string>();
    for (let seed = 1; seed <= 60; seed++) {
      const session = editSession(seed);
      for (const frame of session.frames) {
        const decoded = decodeFrame(frame, { isText: false });
        expect(decoded.verdict, `seed ${seed}`).toBe('decoded');
        expect(decoded.format).toBe('yjs');
        const index = new SpanIndex(frame, yjsWalker);
        expect(index.error).toBeNull();
        expect(spanTilingProblem(index), `seed ${seed}`).toBeNull();
        const m = yjsMessage(index)!;
        const payload = frame.subarray(frame.length - payloadLength(frame));
        if (m.step === 'sync step 1') {
          expect(new Map(m.stateVector)).toEqual(Y.decodeStateVector(payload));
          continue;
        }
        const reference = Y.decodeUpdate(payload);
        const ours = walkerStructs(index);
        expect(ours).toEqual(reference.structs.map(referenceStruct));
        const ds = [...reference.ds.clients].map(([client, items]) => ({
          client,
          ranges: items.map((d) => ({ clock: d.clock, length: d.len })),
        }));
        const ourDs = m.update!.deleteSet.map((d) => ({
          client: d.client,
          ranges: d.ranges.map(({ clock, length }) => ({ clock, length })),
        }));
        expect(ourDs.filter((d) => d.ranges.length > 0)).toEqual(ds);
        frames++;
        structs += ours.length;
        for (const s of ours) seen.add(s.content?.type ?? s.struct);
      }
    }
    expect(frames).toBeGreaterThan(200);
    expect(structs).toBeGreaterThan(1000);
    // The sessions reach every content type Yjs's API writes today (JSON content is legacy).
    expect([...seen].sort()).toEqual(['any', 'binary', 'deleted', 'doc', 'embed', 'format', 'gc', 'string', 'type']);
  });
});

/** The varUint8Array at the end of a sync message: its length. */
function payloadLength(frame: Uint8Array): number {
  let p = 2;
  let n = 0;
  let scale = 1;
  for (;;) {
    const b = frame[p++];
    n += (b & 0x7f) * scale;
    scale *= 128;
    if (b < 0x80) return n;
  }
}
