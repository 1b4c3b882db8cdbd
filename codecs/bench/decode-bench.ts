/**
 * `npm run bench`: our validating span index vs plain decoders, side by side in one run.
 *
 * For the ten seed payloads (../shared/payloads/seed-payloads.json) plus generated 1 MB and
 * 10 MB documents, encoded as CBOR by json-pack: json-pack decode, cbor-x decode, our full
 * span index, our depth-1 index, and cbor2 `comment()` (small payloads only). Reports the
 * median time per operation and the ratio to json-pack decode (targets: full index <= 2.0x,
 * depth-1 <= 0.3x). Rounds interleave the contenders so machine noise hits all of them.
 *
 * Then the real-world-shapes set (shapes-bench.ts): tweets, pretty-printed records, meshes,
 * GeoJSON and text-heavy records from 100 B frames to 3 MB documents, as CBOR, MessagePack
 * and JSON text, each against the fastest plain decoder of its format (CPU and wall ratios).
 *
 * Then Protobuf (protobuf-bench.ts): the schema-less walker's full index vs protobufjs'
 * schema decode of the same messages, 100 B to 64 KB (CPU and wall ratios).
 *
 * Flags (after `npm run bench --`): `--write` replaces the tables in docs/BENCHMARKS.md;
 * `--quick` fewer rounds and no 3 MB documents; `--seeds-only` / `--shapes-only` /
 * `--protobuf-only` / `--framing-only` / `--utf8-only` one of the sets (framing-bench.ts: Socket.IO framing vs the JSON walker; utf8-bench.ts: the JS and SIMD UTF-8 validators, only with its flag); `--format=cbor,msgpack,json` and `--shape=tweets,mesh,...` narrow the shapes set.
 */
import { measure, fmtTime, type Contender } from './measure.js';
import { writeBenchmarkSection } from './report.js';
import { readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder.js';
import { decode as cborxDecode } from 'cbor-x';
import { comment as cbor2Comment } from 'cbor2/comment';
import { SpanIndex } from '../core/span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { generateDocument } from './generate.js';
import { runShapesBench, type ShapeFormat } from './shapes-bench.js';
import { runProtobufBench } from './protobuf-bench.js';
import { runFramingBench, ROUNDS as FRAMING_ROUNDS } from './framing-bench.js';
import { runUtf8Bench } from './utf8-bench.js';

// Runs from codecs/bench (tsx) or dist/bench (bundled): the repository root is two levels up either way.
const repo = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const write = process.argv.includes('--write');
const quick = process.argv.includes('--quick');
const seedsOnly = process.argv.includes('--seeds-only');
const shapesOnly = process.argv.includes('--shapes-only');
const protobufOnly = process.argv.includes('--protobuf-only');
/** The value of `--name=a,b` as a list, or null when absent. */
function listFlag(name: string): string[] | null {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg
    ? arg
        .slice(name.length + 3)
        .split(',')
        .filter(Boolean)
    : null;
}
const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;

interface Payload {
  name: string;
  bytes: Uint8Array;
}

function payloads(): Payload[] {
  const seedsPath = path.resolve(repo, '../shared/payloads/seed-payloads.json');
  if (!existsSync(seedsPath)) throw new Error(`missing ${seedsPath}`);
  const seeds: { name: string; data: unknown }[] = JSON.parse(readFileSync(seedsPath, 'utf8'));
  const encoder = new CborEncoder();
  const list = seeds.map((s) => ({ name: s.name, bytes: encoder.encode(s.data).slice() }));
  for (const mb of [1, 10]) {
    const bytes = new CborEncoder().encode(generateDocument(mb * 1024 * 1024)).slice();
    list.push({ name: `Generated document, ${(bytes.length / 1048576).toFixed(1)} MB`, bytes });
  }
  return list;
}

const jsonPack = new CborDecoder();
/** cbor2 comment() is slow enough to run on small payloads only. */
const contenders: (Contender & { readonly smallOnly?: boolean })[] = [
  { name: 'json-pack decode', run: (b) => jsonPack.decode(b) },
  { name: 'cbor-x decode', run: (b) => cborxDecode(b) },
  { name: 'span index (full)', run: (b) => new SpanIndex(b, cborWalker) },
  { name: 'span index (depth 1)', run: (b) => new SpanIndex(b, cborWalker, { depth: 1 }) },
  { name: 'cbor2 comment()', run: (b) => cbor2Comment(b), smallOnly: true },
];

/** Rounds per payload: small payloads are cheap to sample, and more rounds steady their medians. */
function roundsFor(bytes: Uint8Array): number {
  return quick ? 5 : bytes.length > 4 << 20 ? 9 : 21;
}

function runSeedBench(): void {
  const rows: string[] = [];
  const header = [
    'Payload',
    'CBOR bytes',
    'nodes full / depth 1',
    ...contenders.map((c) => c.name),
    'full / json-pack',
    'depth-1 / json-pack',
    'comment() / json-pack',
  ];
  rows.push(`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  const fullMisses: string[] = [];
  const depth1Misses: string[] = [];
  const flatPayloads: string[] = [];
  let worstFull = 0;
  let worstDepth1 = 0; // reported for completeness; flat payloads included
  const list = payloads();
  // Every contender on every payload first (about 25 ms each; 5 with --quick), so none is
  // measured before the optimizing compiler has caught up with it (it lags on a loaded machine).
  for (const p of list) {
    for (const c of contenders.filter((c) => !c.smallOnly || p.bytes.length <= 64 * 1024)) {
      const t0 = performance.now();
      do c.run(p.bytes);
      while (performance.now() - t0 < (quick ? 5 : 25));
    }
  }
  for (const p of list) {
    const active = contenders.filter((c) => !c.smallOnly || p.bytes.length <= 64 * 1024);
    const times = measure(p.bytes, active, roundsFor(p.bytes));
    const byName = new Map(active.map((c, i) => [c.name, times[i]]));
    const base = byName.get('json-pack decode')!;
    const full = byName.get('span index (full)')! / base;
    const depth1 = byName.get('span index (depth 1)')! / base;
    const comment = byName.has('cbor2 comment()') ? byName.get('cbor2 comment()')! / base : undefined;
    worstFull = Math.max(worstFull, full);
    worstDepth1 = Math.max(worstDepth1, depth1);
    // On a flat payload (no grandchildren) depth 1 records every item: it is the full index,
    // and a target below the full index's cost cannot apply.
    const fullNodes = new SpanIndex(p.bytes, cborWalker).store.size;
    const depth1Nodes = new SpanIndex(p.bytes, cborWalker, { depth: 1 }).store.size;
    const flat = depth1Nodes === fullNodes;
    if (full > 2) fullMisses.push(`${p.name} (${full.toFixed(2)}x)`);
    if (flat) flatPayloads.push(p.name);
    else if (depth1 > 0.3) depth1Misses.push(`${p.name} (${depth1.toFixed(2)}x)`);
    const cells = contenders.map((c) => (byName.has(c.name) ? fmtTime(byName.get(c.name)!) : '—'));
    rows.push(
      `| ${p.name} | ${p.bytes.length} | ${fullNodes} / ${depth1Nodes} | ${cells.join(' | ')} | ${full.toFixed(2)}x | ${depth1.toFixed(2)}x${flat ? ' (flat)' : ''} | ${comment ? comment.toFixed(0) + 'x' : '—'} |`,
    );
    console.error(`${p.name}: full ${full.toFixed(2)}x, depth-1 ${depth1.toFixed(2)}x of json-pack decode`);
  }

  const verdict = [
    `Full index (target <= 2.0x json-pack decode): worst ${worstFull.toFixed(2)}x; ${fullMisses.length ? `missed on ${fullMisses.join(', ')}` : 'met on every payload'}.`,
    `Depth-1 index (target <= 0.3x), on payloads where depth 1 records less than the full index: ${depth1Misses.length ? `missed on ${depth1Misses.join(', ')}` : 'met on every one'}. Flat payloads (depth 1 = full index): ${flatPayloads.join(', ') || 'none'}.`,
  ].join('\n');
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}. Median time per call after a warm-up pass over every payload; ratios are to json-pack decode in the same run.`,
    '',
    ...rows,
    '',
    verdict,
  ].join('\n');
  console.log(table);
  if (write) writeBenchmarkSection(repo, 'decode', table);
}

function runShapes(): void {
  const formats = (listFlag('format') ?? ['cbor', 'msgpack', 'json']) as ShapeFormat[];
  const tables = runShapesBench({ quick, formats, shapes: listFlag('shape'), log: (line) => console.error(line) });
  const text = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )} (1 / 5 / 15 min) when the set ended. CPU time (\`process.cpuUsage\`, user + system) and wall time per call, each the lowest sample over 9-15 interleaved rounds (5 with --quick) after a warm-up pass over every frame (other work on the machine only adds time to a sample); ratios are to the fastest plain decoder of the format on that frame in the same run. "medians": the same CPU ratio from median samples.`,
    '',
    tables,
  ].join('\n');
  console.log(text);
  if (write && !quick && !listFlag('format') && !listFlag('shape')) writeBenchmarkSection(repo, 'shapes', text);
  else if (write)
    console.error('docs/BENCHMARKS.md: shapes table not written (a --quick, --format or --shape run is partial)');
}

function runProtobuf(): void {
  const table = runProtobufBench({ quick, log: (line) => console.error(line) });
  const text = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )} (1 / 5 / 15 min) when the set ended. CPU time (\`process.cpuUsage\`) and wall time per call, the lowest sample over 15 interleaved rounds (5 with --quick) after a warm-up pass over every frame and another on each frame right before it is timed; ratios are to protobufjs' \`Type.decode\` with the schema in the same run ("medians": the same CPU ratio from median samples).`,
    '',
    table,
  ].join('\n');
  console.log(text);
  if (write && !quick) writeBenchmarkSection(repo, 'protobuf', text);
}

const framingOnly = process.argv.includes('--framing-only');
const utf8Only = process.argv.includes('--utf8-only');
const oneSet = protobufOnly || framingOnly || utf8Only;
if (utf8Only) {
  const utf8 = `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' / ',
    )} (1 / 5 / 15 min). CPU time per byte of text, the lowest sample over ${quick ? 5 : 9} interleaved rounds.\n\n${runUtf8Bench({ quick })}`;
  console.log(`\nUTF-8 validation: JS, WebAssembly SIMD, and what the walkers pick\n\n${utf8}`);
}
if (!shapesOnly && !oneSet) runSeedBench();
if (!seedsOnly && !oneSet) runShapes();
if (!seedsOnly && !shapesOnly && !framingOnly && !utf8Only) runProtobuf();
if (!seedsOnly && !shapesOnly && !protobufOnly && !utf8Only) {
  const framing = `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' / ',
    )} (1 / 5 / 15 min). Lowest CPU and wall sample per call over ${quick ? 5 : FRAMING_ROUNDS} interleaved rounds of 2 ms samples, after an interleaved warm-up.\n\n${runFramingBench({ quick }).table}`;
  console.log(`\nSocket.IO text framing vs the JSON walker (same JSON bytes)\n\n${framing}`);
  if (write && !quick) writeBenchmarkSection(repo, 'framing', framing);
}
