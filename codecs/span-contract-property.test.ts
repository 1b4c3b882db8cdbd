/**
 * The span contract on any input: every node lies within its parent and within the frame,
 * children in order, never shorter than its head, for every walker (forced, on complete,
 * cut, mutated and random bytes) and for auto-detection (the chosen reading and the partial
 * trees of the rejected ones). Fixed seeds and a fixed number of small inputs: bounded time.
 */
import { encode as encodeMsgpack } from '@msgpack/msgpack';
import { Model } from 'json-joy/lib/json-crdt/index.js';
import { describe, expect, it } from 'vitest';
import { makeRng, type Rng } from './core/rng.js';
import { decodeFrame, FRAME_FORMATS, type FrameFormat } from './index.js';
import { detectFormat } from './detect.js';
import { nestingProblems } from './test/helpers/cbor.js';

const utf8 = new TextEncoder();
const bytesOf = (...parts: (number[] | Uint8Array | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...utf8.encode(p)] : [...p])));

function samples(): Uint8Array[] {
  const doc = { id: 7, name: 'wire', tags: ['a', 'b'], deep: { x: [1, 2.5, null, true], s: 'é€😀' } };
  const model = Model.create(undefined, 4242);
  model.api.set(doc);
  const patch = model.api.flush().toBinary();
  model.api.obj([]).set({ more: [1, 2, 3] });
  const patch2 = model.api.flush().toBinary();
  const topic = 'sensors/1';
  const publish = bytesOf([0x30, 2 + topic.length + 5, 0, topic.length], topic, 'hello');
  return [
    // CBOR: {"a": [1, -2, 1.5, "x", h'01'], "b": tag 1(0)}
    bytesOf([0xa2, 0x61, 0x61, 0x85, 0x01, 0x21, 0xf9, 0x3e, 0x00, 0x61, 0x78, 0x41, 0x01, 0x61, 0x62, 0xc1, 0x00]),
    encodeMsgpack(doc),
    bytesOf(JSON.stringify(doc)),
    bytesOf(`${JSON.stringify(doc)}\n${JSON.stringify([1, 2])}\n`),
    bytesOf('plain text, some of it é'),
    // Protobuf: field 1 varint 150, field 2 "testing", field 3 { field 1: 1 }
    bytesOf([0x08, 0x96, 0x01, 0x12, 0x07], 'testing', [0x1a, 0x02, 0x08, 0x01]),
    bytesOf('42["event",{"a":1,"b":[true,null]}]'),
    publish,
    bytesOf(publish, [0xc0, 0x00, 0xd0, 0x00]),
    bytesOf('SEND\ndestination:/queue/a\ncontent-type:text/plain\n\nhello\0'),
    bytesOf('["1","2","room:lobby","new_msg",{"body":"hi"}]'),
    bytesOf([2, 1, 10, 3], 'r', 'room:lobby', 'new', [1, 2, 3, 4]),
    model.toBinary(),
    patch,
    patch2,
  ];
}

function mutate(rng: Rng, bytes: Uint8Array): Uint8Array {
  const out = Array.from(bytes);
  const edits = 1 + rng.int(3);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(out.length + 1);
    switch (rng.int(4)) {
      case 0:
        if (out.length) out[Math.min(at, out.length - 1)] = rng.int(256);
        break;
      case 1:
        out.splice(at, 0, rng.int(256));
        break;
      case 2:
        out.splice(at, 1 + rng.int(4));
        break;
      default:
        out.length = Math.min(out.length, at); // cut off
    }
  }
  return Uint8Array.from(out);
}

function randomBytes(rng: Rng): Uint8Array {
  const bytes = new Uint8Array(rng.int(40));
  for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
  return bytes;
}

/** Inputs: each sample, every cut of it, mutations of it, and random bytes. */
function inputs(seed: number): Uint8Array[] {
  const rng = makeRng(seed);
  const out: Uint8Array[] = [];
  for (const sample of samples()) {
    out.push(sample);
    for (let cut = 0; cut < sample.length; cut++) out.push(sample.subarray(0, cut));
    for (let n = 0; n < 40; n++) out.push(mutate(rng, sample));
  }
  for (let n = 0; n < 300; n++) out.push(randomBytes(rng));
  return out;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');

describe('MQTT partial trees keep the span contract', () => {
  it('a PINGREQ with a remaining length byte past the frame: no node past its parent', () => {
    const frame = decodeFrame(Uint8Array.of(0xc0, 0x00, 0x01), { format: 'mqtt' });
    expect(frame.error).not.toBeNull();
    expect(nestingProblems(frame.index!)).toEqual([]);
  });

  it('a 22-byte PUBLISH declaring 160 bytes after its header: the root ends at the frame', () => {
    const bytes = bytesOf([0x30, 0xa0, 0x01, 0x00, 0x05], 'topic', 'twelve bytes');
    expect(bytes.length).toBe(22);
    for (const frame of [decodeFrame(bytes, { format: 'mqtt' }), decodeFrame(bytes, { subprotocol: 'mqtt' })]) {
      const index = frame.index ?? detectFormat(bytes).rejected.find((r) => r.format === 'mqtt')?.index;
      expect(index).toBeDefined();
      expect(index!.store.end[0]).toBeLessThanOrEqual(22);
      expect(nestingProblems(index!)).toEqual([]);
    }
  });
});

describe('every node within its parent and within the frame, on any input', () => {
  const all = inputs(28);

  for (const format of FRAME_FORMATS) {
    it(`${format}: complete, cut, mutated and random bytes`, () => {
      for (const bytes of all) {
        const frame = decodeFrame(bytes, { format: format as FrameFormat, depth: Infinity });
        if (!frame.index) continue;
        expect(nestingProblems(frame.index), `${format} on ${hex(bytes)}`).toEqual([]);
      }
    });
  }

  it('auto-detection: the chosen reading and every rejected partial tree', () => {
    for (const bytes of all) {
      for (const isText of [false, true]) {
        const frame = decodeFrame(bytes, { isText });
        if (frame.index) expect(nestingProblems(frame.index), `auto on ${hex(bytes)}`).toEqual([]);
        for (const rejected of detectFormat(bytes, { isText }).rejected)
          if (rejected.index)
            expect(nestingProblems(rejected.index), `${rejected.format} rejected on ${hex(bytes)}`).toEqual([]);
      }
    }
  });
});
