/**
 * The floor under the line "1 MB value across all codecs in <= 2 s": json-joy's OWN work
 * for its seven codecs on the same ~1 MB document — build the model, then one encode and
 * one decode per codec and one deflate of each output — with no wirescope code in the
 * timed path. If this alone exceeds 2 s, the comparison cannot meet the line on this
 * machine whatever it does. Usage: npx tsx codecs/bench/jsonjoy-1mb-floor.ts
 */
import { deflateSync } from 'fflate';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import {
  Encoder as CompactEncoder,
  Decoder as CompactDecoder,
} from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { Encoder as CompactBinaryEncoder } from 'json-joy/lib/json-crdt/codec/structural/compact-binary/Encoder.js';
import { Decoder as CompactBinaryDecoder } from 'json-joy/lib/json-crdt/codec/structural/compact-binary/Decoder.js';
import {
  Encoder as VerboseEncoder,
  Decoder as VerboseDecoder,
} from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import {
  Encoder as IndexedEncoder,
  Decoder as IndexedDecoder,
} from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import {
  Encoder as SidecarEncoder,
  Decoder as SidecarDecoder,
} from 'json-joy/lib/json-crdt/codec/sidecar/binary/index.js';
import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder.js';
import { generateDocument } from './generate.js';
import { cpuClock } from '../compare/timing.js';

export interface FloorResult {
  /** Wall and CPU milliseconds of json-joy's own work, once per codec. */
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** json-joy's own work for its seven codecs on `doc`; `log` receives one line per step. */
export function jsonjoyFloor(doc: unknown, log: (line: string) => void = () => {}): FloorResult {
  const t = (label: string, f: () => unknown): unknown => {
    const t0 = performance.now();
    const r = f();
    log(`${label.padEnd(40)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms`);
    return r;
  };
  const text = new TextEncoder();
  const t0 = performance.now();
  const c0 = cpuClock();
  const logical = t('build model (logical clock)', () => {
    const m = Model.create();
    m.api.root(doc);
    return m;
  }) as Model;
  const server = t('build model (server clock)', () => {
    const m = Model.withServerClock();
    m.api.root(doc);
    return m;
  }) as Model;
  for (const [name, model] of [
    ['binary (logical)', logical],
    ['binary (server)', server],
  ] as const) {
    const bytes = t(`${name}: encode`, () => model.toBinary()) as Uint8Array;
    t(`${name}: decode`, () => Model.fromBinary(bytes));
    t(`${name}: deflate`, () => deflateSync(bytes));
  }
  const compact = t('compact: encode', () => new CompactEncoder().encode(logical));
  const compactJson = text.encode(JSON.stringify(compact));
  t('compact: decode', () => new CompactDecoder().decode(JSON.parse(new TextDecoder().decode(compactJson))));
  t('compact: deflate', () => deflateSync(compactJson));
  const cb = t('compact-binary: encode', () => new CompactBinaryEncoder().encode(logical)) as Uint8Array;
  t('compact-binary: decode', () => new CompactBinaryDecoder().decode(cb));
  t('compact-binary: deflate', () => deflateSync(cb));
  const verbose = text.encode(JSON.stringify(t('verbose: encode', () => new VerboseEncoder().encode(logical))));
  t('verbose: decode', () => new VerboseDecoder().decode(JSON.parse(new TextDecoder().decode(verbose))));
  t('verbose: deflate', () => deflateSync(verbose));
  const indexed = t('indexed: encode', () => new IndexedEncoder().encode(logical)) as Record<string, Uint8Array>;
  t('indexed: decode', () => new IndexedDecoder().decode(indexed as never));
  t('indexed: deflate (fields concatenated)', () => {
    const parts = Object.values(indexed);
    const all = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
    let o = 0;
    for (const b of parts) all.set(b, o), (o += b.length);
    return deflateSync(all);
  });
  const [view, meta] = t('sidecar: encode', () => new SidecarEncoder().encode(logical)) as [Uint8Array, Uint8Array];
  // The sidecar decoder takes the view as a value (CBOR-decoded) beside the meta blob.
  t('sidecar: decode', () => new SidecarDecoder().decode(new CborDecoder().decode(view), meta));
  t('sidecar: deflate', () => (deflateSync(view), deflateSync(meta)));
  const result = { wallMs: performance.now() - t0, cpuMs: cpuClock() - c0 };
  log(
    `json-joy's own work, once per codec: ${result.wallMs.toFixed(0)} ms wall, ${result.cpuMs.toFixed(0)} ms CPU (verbose JSON: ${verbose.length} bytes)`,
  );
  return result;
}

const isMain =
  typeof process !== 'undefined' &&
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) jsonjoyFloor(generateDocument(1 << 20), console.log);
