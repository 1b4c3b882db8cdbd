/**
 * `npm run bench:seeds`: json-joy's two published seed-payload encoding benchmarks, reproduced
 * on this machine for the ten documents of ../shared/payloads/seed-payloads.json.
 *
 * (a) "Encoding JSON documents" (json-joy `src/json-crdt/__bench__/bench.codecs.encoding.json.ts`):
 *     json-pack `CborEncoder.encode(data)` vs `Buffer.from(JSON.stringify(data))` vs
 *     `Model.toBinary()` with a logical and with a server clock. The model is built once per
 *     payload outside the timed region (`Model.create()` / `Model.withServerClock()`, then
 *     `model.api.root(data)`); only `toBinary()` is timed.
 * (b) "Encoding - JSON CRDT codecs" (json-joy `src/json-crdt/__bench__/bench.codecs.encoding.ts`):
 *     structural binary / compact / verbose, indexed and sidecar, each with a server and a logical
 *     clock. Like json-joy's own benchmark, compact and verbose are timed as
 *     `cborEncoder.encode(encoder.encode(model))` (JS value, then CBOR bytes); a supplementary
 *     table times `encoder.encode(model)` alone (JS value only).
 *     Beside json-joy's codecs, suite (b) times the other two CRDT libraries on the same content:
 *     Yjs `Y.encodeStateAsUpdate(doc)` (update v1) of a Y.Doc built by `yjsDocOfJson`, and
 *     `Automerge.save(doc)` of `automergeDocOfJson` (`Automerge.from`); both documents are built
 *     once per payload outside the timed region. A size table (seed-sizes.ts) gives the exact bytes
 *     of every format, Yjs update v2 included.
 *
 * Method: for each payload, all encoders of a suite are measured side by side in one process:
 * warm-up (1,000 calls, as json-joy, plus calibration of a batch size worth ~SAMPLE_MS), then
 * ROUNDS rounds; in each round every encoder takes one timed sample (order rotated per round).
 * Reported: median ops/s over the rounds, and the spread (p25..p75 as +/- % of the median).
 * "Fastest is" names the encoder with the highest median; when its p25..p75 range overlaps the
 * runner-up's, the line says so ("not separable").
 *
 * Prints Markdown and writes it to docs/seed-benchmarks.md, followed by a comparison with the
 * orderings of json-joy's published reports, computed from the measured numbers.
 * `--quick` measures fewer, shorter rounds (no file written).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as Automerge from '@automerge/automerge';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { Encoder as CompactEncoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { Encoder as VerboseEncoder } from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import { Encoder as IndexedEncoder } from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import { Encoder as SidecarEncoder } from 'json-joy/lib/json-crdt/codec/sidecar/binary/index.js';
import * as Y from 'yjs';
import { seedPayloads } from '../crdt/corpus.js';
import { automergeDocOfJson } from './automerge-doc-of-json.js';
import { ROOT_VALUE_KEY } from './crdt-root-record.js';
import { modelOf } from './seed-model.js';
import { measureSizes, type PayloadSizes, SIZE_SESSION_ID, sizeOf, sizesMarkdown } from './seed-sizes.js';
import { YJS_BENCH_CLIENT_ID, YJS_ROOT_NAME, yjsDocOfJson } from './yjs-doc-of-json.js';

// Runs from codecs/bench (tsx) or dist/bench (bundled): the repository root is two levels up either way.
const repo = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const quick = process.argv.includes('--quick');

const WARMUP_CALLS = 1000;
const SAMPLE_MS = quick ? 10 : 40;
const ROUNDS = quick ? 5 : 11;
const SUPPLEMENT_ROUNDS = quick ? 3 : 7;

type Fn = () => unknown;
interface Runner {
  name: string;
  setup: (data: unknown) => Fn;
}

interface Result {
  name: string;
  median: number;
  p25: number;
  p75: number;
}

interface PayloadResult {
  payload: string;
  results: Result[];
}

interface SuiteResult {
  name: string;
  runners: string[];
  payloads: PayloadResult[];
}

// A sink the optimiser cannot see through, so that no encode call is dead code.
let sink = 0;
function consume(x: unknown): void {
  if (x instanceof Uint8Array) sink += x.length;
  else if (Array.isArray(x)) sink += x.length;
  else if (x !== null && typeof x === 'object') sink += 1;
}

const cbor = new CborEncoder();

const suiteA: Runner[] = [
  {
    name: 'json-joy/json-pack CborEncoder',
    setup: (d) => {
      const e = new CborEncoder();
      return () => e.encode(d);
    },
  },
  { name: 'Buffer.from(JSON.stringify(json))', setup: (d) => () => Buffer.from(JSON.stringify(d)) },
  {
    name: 'Model.toBinary() - with logical clock',
    setup: (d) => {
      const m = modelOf(d, 'logical');
      return () => m.toBinary();
    },
  },
  {
    name: 'Model.toBinary() - with server clock',
    setup: (d) => {
      const m = modelOf(d, 'server');
      return () => m.toBinary();
    },
  },
];

const clocks = [
  ['server', 'with server clock'],
  ['logical', 'with logical clock'],
] as const;

const suiteB: Runner[] = [];
for (const [c, label] of clocks)
  suiteB.push({
    name: `structural > binary (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      return () => m.toBinary();
    },
  });
for (const [c, label] of clocks)
  suiteB.push({
    name: `structural > compact (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      const e = new CompactEncoder();
      return () => cbor.encode(e.encode(m));
    },
  });
for (const [c, label] of clocks)
  suiteB.push({
    name: `structural > verbose (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      const e = new VerboseEncoder();
      return () => cbor.encode(e.encode(m));
    },
  });
for (const [c, label] of clocks)
  suiteB.push({
    name: `indexed (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      const e = new IndexedEncoder();
      return () => e.encode(m);
    },
  });
for (const [c, label] of clocks)
  suiteB.push({
    name: `sidecar (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      const e = new SidecarEncoder();
      return () => e.encode(m);
    },
  });

const YJS_V1 = 'Yjs encodeStateAsUpdate (update v1)';
const AUTOMERGE_SAVE = 'Automerge.save()';
/** Suite (b)'s runners that are not json-joy codecs: left out of the comparison with json-joy's report. */
const otherCrdts = new Set([YJS_V1, AUTOMERGE_SAVE]);
suiteB.push(
  {
    name: YJS_V1,
    setup: (d) => {
      const doc = yjsDocOfJson(d);
      return () => Y.encodeStateAsUpdate(doc);
    },
  },
  {
    name: AUTOMERGE_SAVE,
    setup: (d) => {
      const doc = automergeDocOfJson(d);
      return () => Automerge.save(doc);
    },
  },
);

const suiteBValueOnly: Runner[] = [];
for (const [c, label] of clocks)
  suiteBValueOnly.push({
    name: `structural > compact, value only (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      const e = new CompactEncoder();
      return () => e.encode(m);
    },
  });
for (const [c, label] of clocks)
  suiteBValueOnly.push({
    name: `structural > verbose, value only (${label})`,
    setup: (d) => {
      const m = modelOf(d, c);
      const e = new VerboseEncoder();
      return () => e.encode(m);
    },
  });

function timeBatch(fn: Fn, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) consume(fn());
  return Number(process.hrtime.bigint() - t0) / 1e6; // ms
}

/** Calls per sample so that one sample takes about SAMPLE_MS. */
function calibrate(fn: Fn): number {
  let n = 1;
  for (;;) {
    const ms = timeBatch(fn, n);
    if (ms >= 5 || n >= 1 << 24) return Math.max(1, Math.round((n * SAMPLE_MS) / Math.max(ms, 1e-3)));
    n *= 2;
  }
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function runSuite(
  name: string,
  runners: Runner[],
  rounds: number,
  payloads: { name: string; data: unknown }[],
): SuiteResult {
  const out: SuiteResult = { name, runners: runners.map((r) => r.name), payloads: [] };
  for (const p of payloads) {
    const fns = runners.map((r) => r.setup(p.data));
    for (const fn of fns) for (let i = 0; i < WARMUP_CALLS; i++) consume(fn());
    const batch = fns.map(calibrate);
    const samples: number[][] = fns.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < fns.length; k++) {
        const i = (k + round) % fns.length; // rotate the order every round
        const ms = timeBatch(fns[i], batch[i]);
        samples[i].push((batch[i] * 1000) / ms);
      }
    }
    const results = runners.map((r, i) => {
      const s = samples[i].slice().sort((a, b) => a - b);
      return { name: r.name, median: quantile(s, 0.5), p25: quantile(s, 0.25), p75: quantile(s, 0.75) };
    });
    out.payloads.push({ payload: p.name, results });
    process.stderr.write(`  ${name}: ${p.name} done\n`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Reporting

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const spread = (r: Result): string => `±${(((r.p75 - r.p25) / 2 / r.median) * 100).toFixed(1)}%`;
/** True when the two results' p25..p75 ranges do not overlap. */
const separable = (a: Result, b: Result): boolean => a.p25 > b.p75 || b.p25 > a.p75;

function ranked(p: PayloadResult): Result[] {
  return p.results.slice().sort((a, b) => b.median - a.median);
}

function fastestLine(p: PayloadResult): string {
  const [first, second] = ranked(p);
  const note =
    second && !separable(first, second) ? ` (not separable from ${second.name}: p25..p75 ranges overlap)` : '';
  return `Fastest is **${first.name}**${note}`;
}

function suiteMarkdown(s: SuiteResult, rounds: number, description: string): string {
  const lines: string[] = [`## ${s.name}`, '', description, ''];
  for (const p of s.payloads) {
    lines.push(`### Payload: **${p.payload}**`, '');
    for (const r of ranked(p))
      lines.push(`- ${r.name} x ${fmt(r.median)} ops/sec ${spread(r)} (median of ${rounds} rounds)`);
    lines.push('', fastestLine(p), '');
  }
  lines.push(`### Summary: median ops/s (${s.name})`, '');
  lines.push(`| Payload | ${s.runners.join(' | ')} |`, `|---|${s.runners.map(() => '---:').join('|')}|`);
  for (const p of s.payloads) lines.push(`| ${p.payload} | ${p.results.map((r) => fmt(r.median)).join(' | ')} |`);
  lines.push('');
  return lines.join('\n');
}

function get(p: PayloadResult, name: string): Result {
  const r = p.results.find((x) => x.name === name);
  if (!r) throw new Error(`no result for ${name}`);
  return r;
}

const BINARY_LOGICAL = 'structural > binary (with logical clock)';

/** Yjs and Automerge against json-joy's structural binary with a logical clock: bytes and median ops/s, with ratios. */
function besideJsonJoy(b: SuiteResult, sizes: readonly PayloadSizes[]): string {
  const ratio = (x: number, base: number): string => `${(x / base).toFixed(2)}×`;
  const lines = [
    "## Yjs and Automerge beside json-joy's structural binary",
    '',
    `Each CRDT's encoding of the same content against \`${BINARY_LOGICAL}\` (a peer-to-peer clock, like the ` +
      "client ids of Yjs and the actor ids of Automerge). Bytes from the size table; ops/s are suite (b)'s medians " +
      'from the same rounds; × is relative to json-joy binary (bytes: below 1 is smaller; ops/s: above 1 is faster).',
    '',
    '| Payload | json-joy binary bytes | Yjs v1 bytes | Yjs v2 bytes | Automerge bytes | json-joy binary ops/s | Yjs v1 ops/s | Automerge ops/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const p of b.payloads) {
    const size = sizes.find((s) => s.payload === p.payload);
    if (!size) throw new Error(`no sizes for ${p.payload}`);
    const base = sizeOf(size, 'binary (logical)');
    const bytes = (h: string): string => `${fmt(sizeOf(size, h))} (${ratio(sizeOf(size, h), base)})`;
    const speed = get(p, BINARY_LOGICAL).median;
    const ops = (name: string): string => `${fmt(get(p, name).median)} (${ratio(get(p, name).median, speed)})`;
    lines.push(
      `| ${p.payload} | ${fmt(base)} | ${bytes('Yjs update v1')} | ${bytes('Yjs update v2')} | ${bytes('Automerge save()')} | ${fmt(speed)} | ${ops(YJS_V1)} | ${ops(AUTOMERGE_SAVE)} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

function comparison(a: SuiteResult, b: SuiteResult): { markdown: string; summary: string[] } {
  const lines: string[] = ["## Comparison with json-joy's published orderings", ''];
  const summary: string[] = [];

  // (b): structural binary with a server clock is fastest on every payload.
  const bName = 'structural > binary (with server clock)';
  const bAgree: string[] = [];
  const bDisagree: string[] = [];
  lines.push(
    `**Published (b):** \`${bName}\` is the fastest codec on every payload (ranked here among json-joy's codecs only; Yjs and Automerge are not in json-joy's report).`,
    '',
  );
  for (const withOthers of b.payloads) {
    const p = { ...withOthers, results: withOthers.results.filter((r) => !otherCrdts.has(r.name)) };
    const [first, second] = ranked(p);
    const ours = get(p, bName);
    if (first.name === bName) {
      const margin = ((first.median / second.median - 1) * 100).toFixed(1);
      const sep = separable(first, second) ? '' : ', not separable';
      bAgree.push(p.payload);
      lines.push(`- ${p.payload}: agrees — fastest, ${margin}% ahead of ${second.name}${sep}.`);
    } else {
      const behind = ((1 - ours.median / first.median) * 100).toFixed(1);
      const sep = separable(first, ours) ? '' : ', not separable';
      bDisagree.push(p.payload);
      lines.push(
        `- ${p.payload}: **differs** — fastest is ${first.name}; ${bName} is ${behind}% behind (rank ${ranked(p).indexOf(ours) + 1}${sep}).`,
      );
    }
  }
  lines.push(
    '',
    `Agrees on ${bAgree.length}/${b.payloads.length} payloads${bDisagree.length ? `; differs on: ${bDisagree.join('; ')}` : ''}.`,
    '',
  );
  summary.push(
    `(b) structural binary with server clock fastest: agrees on ${bAgree.length}/${b.payloads.length}${bDisagree.length ? `; differs on: ${bDisagree.join('; ')}` : ''}.`,
  );

  // (a): CborEncoder ahead of JSON on every payload except the 45,750-byte object.
  const cName = 'json-joy/json-pack CborEncoder';
  const jName = 'Buffer.from(JSON.stringify(json))';
  const aAgree: string[] = [];
  const aDisagree: string[] = [];
  lines.push(
    `**Published (a):** \`${cName}\` is ahead of \`${jName}\` on every payload except "Very large object, 45750 bytes", where JSON is ahead.`,
    '',
  );
  for (const p of a.payloads) {
    const c = get(p, cName);
    const j = get(p, jName);
    const expectCbor = !p.payload.includes('45750');
    const cborAhead = c.median > j.median;
    const ratio = (c.median / j.median).toFixed(2);
    const sep = separable(c, j) ? '' : ' (not separable: p25..p75 ranges overlap)';
    const what = `CBOR/JSON = ${ratio}x (${cborAhead ? 'CBOR' : 'JSON'} ahead)${sep}`;
    if (cborAhead === expectCbor) {
      aAgree.push(p.payload);
      lines.push(`- ${p.payload}: agrees — ${what}.`);
    } else {
      aDisagree.push(p.payload);
      lines.push(`- ${p.payload}: **differs** — published: ${expectCbor ? 'CBOR' : 'JSON'} ahead; here ${what}.`);
    }
  }
  lines.push(
    '',
    `Agrees on ${aAgree.length}/${a.payloads.length} payloads${aDisagree.length ? `; differs on: ${aDisagree.join('; ')}` : ''}.`,
    '',
  );
  summary.push(
    `(a) CborEncoder ahead of JSON except on the 45,750-byte object: agrees on ${aAgree.length}/${a.payloads.length}${aDisagree.length ? `; differs on: ${aDisagree.join('; ')}` : ''}.`,
  );
  return { markdown: lines.join('\n'), summary };
}

// ---------------------------------------------------------------------------------------

const payloads = seedPayloads();
const started = Date.now();
process.stderr.write(
  `bench:seeds: ${payloads.length} payloads, ${ROUNDS} rounds x ~${SAMPLE_MS} ms samples${quick ? ' (quick)' : ''}\n`,
);
const sizes = measureSizes(payloads);
const a = runSuite('Encoding JSON documents', suiteA, ROUNDS, payloads);
const b = runSuite('Encoding - JSON CRDT codecs', suiteB, ROUNDS, payloads);
const v = runSuite(
  'Supplement: compact / verbose encode to a JS value only',
  suiteBValueOnly,
  SUPPLEMENT_ROUNDS,
  payloads,
);
const seconds = ((Date.now() - started) / 1000).toFixed(0);

const cpus = os.cpus();
const machine =
  `CPU: ${cpus[0]?.model.trim() ?? 'unknown'}, ${cpus.length} cores, ` +
  `memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node.js ${process.version} (${process.arch}), ` +
  `date: ${new Date().toISOString()}`;

const { markdown: cmp, summary } = comparison(a, b);
const versionOf = (pkg: string): string =>
  JSON.parse(readFileSync(path.join(repo, 'node_modules', pkg, 'package.json'), 'utf8')).version;

const doc = [
  '# Seed payload encoding benchmarks (json-joy 17.67.0)',
  '',
  '<!-- Generated by `npm run bench:seeds` (codecs/bench/seed-bench.ts). Do not edit by hand. -->',
  '',
  `> Machine: ${machine}`,
  '',
  'Reproduces json-joy\'s published reports "Encoding JSON documents" and "Encoding - JSON CRDT codecs" ' +
    'for the ten documents of `../shared/payloads/seed-payloads.json`.',
  '',
  `Method: per payload, all encoders of a suite run side by side in one process: ${WARMUP_CALLS.toLocaleString('en-US')} warm-up calls each, ` +
    `a batch size calibrated to ~${SAMPLE_MS} ms per sample, then ${ROUNDS} rounds in which every encoder takes one sample ` +
    '(order rotated per round). Reported: the median ops/s over the rounds; ± is half the p25..p75 range relative to the median. ' +
    `"Fastest is" names the highest median and says when its p25..p75 range overlaps the runner-up's. Total run time: ${seconds} s.`,
  '',
  'Models are built once per payload outside the timed region (`Model.create()` or `Model.withServerClock()`, then ' +
    "`model.api.root(data)`). JSON is `Buffer.from(JSON.stringify(data))`, as in json-joy's benchmark. " +
    'Compact and verbose are timed as `cborEncoder.encode(encoder.encode(model))`, i.e. JS value then CBOR bytes, ' +
    "which is what json-joy's `bench.codecs.encoding.ts` does; the supplement times the JS value alone. " +
    'Indexed returns a map of `Uint8Array`s; sidecar returns `[view, meta]` (its encoder always writes a logical clock table).',
  '',
  `Yjs ${versionOf('yjs')} and Automerge ${versionOf('@automerge/automerge')} run in suite (b), beside json-joy's CRDT codecs, in the same rounds. ` +
    `Yjs: a \`Y.Doc\` is built once per payload outside the timed region (codecs/bench/yjs-doc-of-json.ts) and ` +
    '`Y.encodeStateAsUpdate(doc)` (update v1) is timed. Its content: the root map `doc.getMap(' +
    `'${YJS_ROOT_NAME}')\` holds a JSON object's members as its entries, or any other payload (all the arrays here) as its ` +
    `single entry \`${ROOT_VALUE_KEY}\`; nested objects are \`Y.Map\`s, nested arrays \`Y.Array\`s filled by one \`push\`, ` +
    'and strings, numbers, booleans and null are plain values (not `Y.Text`); one transaction, client id ' +
    `${YJS_BENCH_CLIENT_ID}. Automerge: \`Automerge.from(record)\` with the same root record is built once per payload ` +
    'outside the timed region (codecs/bench/automerge-doc-of-json.ts) and `Automerge.save(doc)` is timed; Automerge maps ' +
    'strings to collaborative text, integers to 64-bit ints and other numbers to f64, and `save()` compresses large columns. ' +
    "json-joy's model root holds an array payload directly, without the wrapping map. Two differences show in the sizes: " +
    'Yjs stores a run of values inserted together as one item (each value keeps an id implied by its offset), so arrays ' +
    "of numbers or tokens stay small; and its strings are atomic values that can only be replaced, while json-joy's " +
    "(`model.api.root` makes them RGA strings) and Automerge's are editable text.",
  '',
  '## Encoded sizes (bytes)',
  '',
  'Exact sizes of one encoding of each payload, the same on every run. JSON is UTF-8 `JSON.stringify`; CBOR is json-pack ' +
    '`CborEncoder`; json-joy binary is `toBinary()`, compact and verbose are CBOR-encoded, indexed and sidecar are the ' +
    `sum of their parts; the logical clock uses session id ${SIZE_SESSION_ID.toLocaleString('en-US')} (as long as most random ` +
    'ones), the server clock session 1. Yjs update v1 is `Y.encodeStateAsUpdate`, v2 `Y.encodeStateAsUpdateV2`, of the ' +
    'documents built as described above; Automerge is the length of `save()` (its random actor id always takes 16 bytes).',
  '',
  sizesMarkdown(sizes),
  '',
  suiteMarkdown(
    a,
    ROUNDS,
    'json-pack `CborEncoder` vs UTF-8 JSON vs `Model.toBinary()` (structural binary) with a logical and a server clock.',
  ),
  suiteMarkdown(
    b,
    ROUNDS,
    'json-joy 17.67.0 CRDT document encoders, then Yjs (`Y.encodeStateAsUpdate`, update v1) and Automerge (`Automerge.save`) on the same content; every result is bytes (compact/verbose include the CBOR step).',
  ),
  besideJsonJoy(b, sizes),
  suiteMarkdown(
    v,
    SUPPLEMENT_ROUNDS,
    "Not part of json-joy's published report: `encoder.encode(model)` without the CBOR step, measured after the main suites.",
  ),
  cmp,
  '',
].join('\n');

process.stdout.write(doc);
if (sink === -1) process.stdout.write(''); // keep `sink` observable
if (!quick) {
  writeFileSync(path.join(repo, 'docs/seed-benchmarks.md'), doc);
  process.stderr.write('wrote docs/seed-benchmarks.md\n');
}
process.stderr.write(`\nSummary:\n${summary.map((s) => `  ${s}`).join('\n')}\n`);
