import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { editedModel, makeRng, randomJson, seedPayloads } from './corpus.js';
import { decodeFrame, detectFormat } from '../index.js';
import { encodeModel } from './codecs.js';
import { main, type CliIo } from '../cli/main.js';

/**
 * Format detection over a randomized corpus: json-joy models (both clocks) and patches
 * against plain CBOR and MessagePack frames of random JSON. The top candidate must be the
 * format the frame was written in. Prints the figure; the target is >= 99.9 %.
 */
describe('format detection with json-joy CRDT frames', () => {
  it('tells models, patches, CBOR and MessagePack apart (>= 99.9 %)', () => {
    const frames: { expected: string; bytes: Uint8Array; label: string }[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      for (const clock of ['logical', 'server'] as const) {
        const { model, patches } = editedModel(seed, { sessions: 2 + (seed % 4), edits: 30, clock });
        frames.push({ expected: 'crdt-model', bytes: model.toBinary(), label: `model ${clock} #${seed}` });
        patches.forEach((p, i) => {
          frames.push({ expected: 'crdt-patch', bytes: p.toBinary(), label: `patch ${clock} #${seed}.${i}` });
        });
      }
    }
    for (const p of seedPayloads()) {
      for (const model of [Model.create(), Model.withServerClock()]) {
        model.api.root(p.data);
        frames.push({ expected: 'crdt-model', bytes: model.toBinary(), label: `seed model ${p.name}` });
      }
    }
    const rng = makeRng(7);
    const cbor = new CborEncoder();
    const msgpack = new MsgPackEncoder();
    for (let i = 0; i < 600; i++) {
      const value = randomJson(rng, 2 + rng.int(40));
      frames.push({ expected: 'cbor', bytes: cbor.encode(value).slice(), label: `cbor #${i}` });
      frames.push({ expected: 'msgpack', bytes: msgpack.encode(value).slice(), label: `msgpack #${i}` });
    }
    const misses: string[] = [];
    const byFormat: Record<string, [number, number]> = {};
    for (const f of frames) {
      const top = detectFormat(f.bytes).candidates[0]?.format ?? 'none';
      const tally = (byFormat[f.expected] ??= [0, 0]);
      tally[1]++;
      if (top === f.expected) tally[0]++;
      else misses.push(`${f.label}: detected ${top}`);
    }
    const hits = frames.length - misses.length;
    const accuracy = hits / frames.length;
    console.log(
      `detection accuracy: ${hits}/${frames.length} = ${(100 * accuracy).toFixed(2)} % (${Object.entries(byFormat)
        .map(([k, [h, n]]) => `${k} ${h}/${n}`)
        .join(', ')})${misses.length ? `; misses: ${misses.slice(0, 10).join('; ')}` : ''}`,
    );
    expect(accuracy).toBeGreaterThanOrEqual(0.999);
  });

  it('a frame that parses both as a server-clock model and as a patch reports both, model first', () => {
    // Find a server-clock model that also reads as a patch; report when one exists.
    for (let seed = 1; seed <= 200; seed++) {
      const { model } = editedModel(seed, { clock: 'server', edits: 5 });
      const d = detectFormat(model.toBinary());
      const formats = d.candidates.map((c) => c.format);
      expect(formats[0]).toBe('crdt-model');
      if (formats.includes('crdt-patch')) expect(formats.indexOf('crdt-patch')).toBeGreaterThan(0);
    }
  });

  it('a truncated model is shown as a model with its error and partial tree', () => {
    const { model } = editedModel(3, { edits: 20 });
    const bytes = model.toBinary();
    const frame = decodeFrame(bytes.subarray(0, bytes.length - 7));
    expect(frame.format).toBe('crdt-model');
    expect(frame.error).not.toBeNull();
    expect(frame.index!.store.size).toBeGreaterThan(3);
  });
});

describe('wirescope inspect on json-joy frames', () => {
  const run = (argv: string[], bytes: Uint8Array) => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { out: (t) => (stdout += t), err: (t) => (stderr += t), readFile: () => bytes, version: 'test' };
    return { code: main(argv, io), stdout, stderr };
  };

  it('prints a model (both clocks) with per-node sizes and the metadata / content split', () => {
    for (const model of [Model.create(), Model.withServerClock()]) {
      model.api.root({ title: 'hello', tags: ['a', 'b'] });
      const r = run(['inspect', 'f'], model.toBinary());
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^crdt-model, \d+ bytes/);
      expect(r.stdout).toMatch(/"title": str \d+\.\d+ \(1 chunk\) "hello"/);
      expect(r.stdout).toMatch(/bytes: CRDT metadata \d+ B \(\d+\.\d%\), content \d+ B/);
      const json = JSON.parse(run(['inspect', 'f', '--json', '--format', 'crdt-model'], model.toBinary()).stdout);
      expect(json).toMatchObject({
        schema: 1,
        format: 'crdt-model',
        error: null,
        root: { kind: 'crdt_model', start: 0 },
      });
      expect(json.crdt.contentBytes + json.crdt.metadataBytes).toBe(json.input.bytes);
    }
  });

  it('prints a patch with its operations', () => {
    const model = Model.create();
    model.api.root({ a: 'x' });
    model.api.flush();
    model.api.str(['a']).ins(1, 'yz');
    const patch = model.api.flush();
    const r = run(['inspect', 'f', '--format', 'crdt-patch'], patch.toBinary());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ins_str \d+\.\d+/);
    expect(r.stdout).toContain('content "yz"');
    const json = JSON.parse(run(['inspect', 'f', '--json'], patch.toBinary()).stdout);
    expect(json.format).toBe('crdt-patch');
    expect(json.root.children.some((c: { op?: string }) => c.op === 'ins_str')).toBe(true);
  });

  it('names json-joy codecs carried as JSON or CBOR', () => {
    const model = Model.create();
    model.api.root({ a: [1, 2], s: 'text' });
    const verbose = encodeModel(model, 'verbose');
    const r = run(['inspect', 'f', '--text'], verbose);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^json, /);
    expect(r.stdout).toContain('json-joy model in the verbose codec (logical clock)');
    expect(r.stdout).toContain('view {"a":[1,2],"s":"text"}');
    const compact = run(['inspect', 'f', '--json'], encodeModel(model, 'compact'));
    expect(JSON.parse(compact.stdout).crdt).toMatchObject({ kind: 'model', codec: 'compact' });
    // Plain data is not called CRDT.
    const plain = run(['inspect', 'f', '--json'], new CborEncoder().encode({ a: [1, 2], s: 'text' }));
    expect(JSON.parse(plain.stdout).crdt).toBeUndefined();
  });
});
