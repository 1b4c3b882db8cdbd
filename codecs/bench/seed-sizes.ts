/**
 * Encoded sizes of one seed payload in every format the seed benchmarks time, plus Yjs update v2
 * (sized only). Every id that reaches the bytes is fixed, so the sizes are exact and the same on
 * every run: json-joy's logical clock uses session id SIZE_SESSION_ID, Yjs its fixed client id,
 * and Automerge's random actor id always takes 16 bytes.
 */
import * as Automerge from '@automerge/automerge';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { Encoder as IndexedEncoder } from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import { Encoder as SidecarEncoder } from 'json-joy/lib/json-crdt/codec/sidecar/binary/index.js';
import { Encoder as CompactEncoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { Encoder as VerboseEncoder } from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import * as Y from 'yjs';
import { automergeDocOfJson } from './automerge-doc-of-json.js';
import { modelOf, type SeedClock } from './seed-model.js';
import { yjsDocOfJson } from './yjs-doc-of-json.js';

/** A session id as large as most random ones (`Model.create()` draws them up to 2^53). */
export const SIZE_SESSION_ID = 5_000_000_000_000_000;

export interface SizeColumn {
  readonly heading: string;
  readonly bytes: (data: unknown) => number;
}

const cbor = new CborEncoder();
const sumOf = (parts: Iterable<Uint8Array>): number => {
  let total = 0;
  for (const part of parts) total += part.length;
  return total;
};
const model = (data: unknown, clock: SeedClock) =>
  modelOf(data, clock, clock === 'logical' ? SIZE_SESSION_ID : undefined);

const jsonJoyColumns = (clock: SeedClock): SizeColumn[] => [
  { heading: `binary (${clock})`, bytes: (d) => model(d, clock).toBinary().length },
  {
    heading: `compact (${clock})`,
    bytes: (d) => cbor.encode(new CompactEncoder().encode(model(d, clock))).length,
  },
  {
    heading: `verbose (${clock})`,
    bytes: (d) => cbor.encode(new VerboseEncoder().encode(model(d, clock))).length,
  },
  { heading: `indexed (${clock})`, bytes: (d) => sumOf(Object.values(new IndexedEncoder().encode(model(d, clock)))) },
  { heading: `sidecar (${clock})`, bytes: (d) => sumOf(new SidecarEncoder().encode(model(d, clock))) },
];

export const sizeColumns: readonly SizeColumn[] = [
  { heading: 'JSON', bytes: (d) => Buffer.byteLength(JSON.stringify(d)) },
  { heading: 'CBOR', bytes: (d) => cbor.encode(d).length },
  ...jsonJoyColumns('server'),
  ...jsonJoyColumns('logical'),
  { heading: 'Yjs update v1', bytes: (d) => Y.encodeStateAsUpdate(yjsDocOfJson(d)).length },
  { heading: 'Yjs update v2', bytes: (d) => Y.encodeStateAsUpdateV2(yjsDocOfJson(d)).length },
  { heading: 'Automerge save()', bytes: (d) => Automerge.save(automergeDocOfJson(d)).length },
];

export interface PayloadSizes {
  readonly payload: string;
  /** Bytes per column of `sizeColumns`, in that order. */
  readonly bytes: readonly number[];
}

export function measureSizes(payloads: readonly { name: string; data: unknown }[]): PayloadSizes[] {
  return payloads.map((p) => ({ payload: p.name, bytes: sizeColumns.map((c) => c.bytes(p.data)) }));
}

/** The bytes of `heading`'s column. */
export function sizeOf(sizes: PayloadSizes, heading: string): number {
  const i = sizeColumns.findIndex((c) => c.heading === heading);
  if (i < 0) throw new Error(`no size column ${heading}`);
  return sizes.bytes[i];
}

export function sizesMarkdown(rows: readonly PayloadSizes[]): string {
  const fmt = (n: number): string => n.toLocaleString('en-US');
  const lines = [
    `| Payload | ${sizeColumns.map((c) => c.heading).join(' | ')} |`,
    `|---|${sizeColumns.map(() => '---:').join('|')}|`,
  ];
  for (const r of rows) lines.push(`| ${r.payload} | ${r.bytes.map(fmt).join(' | ')} |`);
  return lines.join('\n');
}
