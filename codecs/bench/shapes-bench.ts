/**
 * The real-world-shapes part of `npm run bench`: every shape of shapes.ts at every size, as
 * CBOR, MessagePack and JSON text, indexed (full and depth 1) beside the plain decoders of
 * its format in interleaved rounds. Ratios are to the fastest plain decoder of the format on
 * that frame in the same run, in CPU time (`process.cpuUsage`) and in wall time, each from
 * the lowest sample of every contender (other work on a shared machine only adds time to a
 * sample); the ratio of median CPU times is shown beside.
 */
import { measureTimings, fmtTime, type Contender, type Timing } from './measure.js';
import { shapeValues, SHAPES, DOCUMENT_TARGETS } from './shapes.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder.js';
import { MsgPackDecoderFast } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackDecoderFast.js';
import { decode as cborxDecode } from 'cbor-x';
import { Packr, unpack as msgpackrUnpack } from 'msgpackr';
import { decode as msgpackDecode } from '@msgpack/msgpack';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { msgpackWalker } from '../msgpack/walker.js';
import { jsonWalker } from '../json/walker.js';

export type ShapeFormat = 'cbor' | 'msgpack' | 'json';

interface FormatSetup {
  readonly format: ShapeFormat;
  readonly title: string;
  readonly encode: (value: unknown, jsonText: string) => Uint8Array;
  readonly references: readonly Contender[];
  readonly walker: FormatWalker;
  /** Whether the depth-1 target (<= 0.3x) applies; JSON depth 1 is reported beside it. */
  readonly depth1Target: boolean;
}

const cborEncoder = new CborEncoder();
const packr = new Packr({ useRecords: false });
const jsonPackCbor = new CborDecoder();
const jsonPackMsgpack = new MsgPackDecoderFast();
const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

export const FORMATS: readonly FormatSetup[] = [
  {
    format: 'cbor',
    title: 'CBOR (json-pack CborEncoder)',
    encode: (v) => cborEncoder.encode(v).slice(),
    references: [
      { name: 'json-pack', run: (b) => jsonPackCbor.decode(b) },
      { name: 'cbor-x', run: (b) => cborxDecode(b) },
    ],
    walker: cborWalker,
    depth1Target: true,
  },
  {
    format: 'msgpack',
    title: 'MessagePack (msgpackr pack)',
    // A copy in a plain Uint8Array of its own (msgpackr returns a Buffer over a shared pool).
    encode: (v) => Uint8Array.from(packr.pack(v)),
    references: [
      { name: 'msgpackr', run: (b) => msgpackrUnpack(b) },
      { name: '@msgpack/msgpack', run: (b) => msgpackDecode(b) },
      { name: 'json-pack', run: (b) => jsonPackMsgpack.decode(b) },
    ],
    walker: msgpackWalker,
    depth1Target: true,
  },
  {
    format: 'json',
    title: 'JSON text (UTF-8 bytes)',
    encode: (_v, text) => textEncoder.encode(text),
    references: [{ name: 'TextDecoder + JSON.parse', run: (b) => JSON.parse(textDecoder.decode(b)) }],
    walker: jsonWalker,
    depth1Target: false,
  },
];

export interface ShapesOptions {
  readonly quick: boolean;
  readonly formats: readonly ShapeFormat[];
  readonly shapes: readonly string[] | null;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
}

/** Lowest CPU and wall time per call over the rounds, and the median CPU time. */
interface Sample {
  readonly cpu: number;
  readonly wall: number;
  readonly cpuMedian: number;
}

interface Row {
  readonly name: string;
  readonly bytes: number;
  readonly fullNodes: number;
  readonly depth1Nodes: number;
  readonly fastestCpu: string;
  readonly reference: Sample;
  readonly full: Sample;
  readonly depth1: Sample;
}

const DOC_MIN = 4096;
const FULL_DOC_TARGET = 1.5;
const MEDIAN_DOC_TARGET = 1.0;
const FULL_FRAME_TARGET = 2.0;
const DEPTH1_TARGET = 0.3;

/** Runs the set and returns the Markdown tables with their verdicts. */
export function runShapesBench(options: ShapesOptions): string {
  const shapes = options.shapes ? SHAPES.filter((s) => options.shapes!.includes(s.id)) : SHAPES;
  const docTargets = options.quick ? DOCUMENT_TARGETS.slice(0, 3) : DOCUMENT_TARGETS;
  const values = shapeValues(13, shapes, docTargets);
  const sections: string[] = [];
  for (const setup of FORMATS.filter((f) => options.formats.includes(f.format))) {
    const rows: Row[] = [];
    const contenders: Contender[] = [
      ...setup.references,
      { name: 'full', run: (b) => new SpanIndex(b, setup.walker) },
      { name: 'depth 1', run: (b) => new SpanIndex(b, setup.walker, { depth: 1 }) },
    ];
    const frames = values.map(({ shape, value }) => setup.encode(value, shape.jsonText(value)));
    // Every contender on every frame first, so that each is measured in optimized code: on a
    // loaded machine the optimizing compiler's thread lags, and the first frames measured
    // ran unoptimized (an 81-byte frame indexed in 4.4 us in its first pass, 0.45 us after).
    warmUp(frames, contenders, options.quick ? 5 : 25);
    for (let v = 0; v < values.length; v++) {
      const { shape, target } = values[v];
      const bytes = frames[v];
      const name = `${shape.id} ${fmtTarget(target)}`;
      const check = new SpanIndex(bytes, setup.walker);
      if (check.error) throw new Error(`${setup.format} ${name}: the index reports ${check.error.message}`);
      const rounds = options.quick ? 5 : bytes.length > 1 << 20 ? 9 : 15;
      // A full collection between rows (when node runs with --expose-gc, as `npm run bench`
      // does): the garbage of a 3 MB row is otherwise collected by GC threads during the next
      // rows, and process CPU time charges that to whichever contender is running.
      (globalThis as { gc?: () => void }).gc?.();
      const times = measureTimings(bytes, contenders, rounds);
      const refs = times.slice(0, setup.references.length);
      let fastest = 0;
      for (let i = 1; i < refs.length; i++) if (refs[i].cpuMin < refs[fastest].cpuMin) fastest = i;
      const low = (list: readonly Timing[], pick: (t: Timing) => number) => Math.min(...list.map(pick));
      const best = (t: Timing): Sample => ({ cpu: t.cpuMin, wall: t.wallMin, cpuMedian: t.cpu });
      const row: Row = {
        name,
        bytes: bytes.length,
        fullNodes: check.store.size,
        depth1Nodes: new SpanIndex(bytes, setup.walker, { depth: 1 }).store.size,
        fastestCpu: setup.references[fastest].name,
        reference: {
          cpu: low(refs, (r) => r.cpuMin),
          wall: low(refs, (r) => r.wallMin),
          cpuMedian: low(refs, (r) => r.cpu),
        },
        full: best(times[refs.length]),
        depth1: best(times[refs.length + 1]),
      };
      rows.push(row);
      options.log(
        `${setup.format} ${name} (${bytes.length} B): full ${ratio(row.full.cpu, row.reference.cpu)} cpu / ${ratio(row.full.wall, row.reference.wall)} wall, depth 1 ${ratio(row.depth1.cpu, row.reference.cpu)} cpu`,
      );
    }
    sections.push(formatSection(setup, rows));
  }
  return sections.join('\n\n');
}

/**
 * Runs each contender on each frame for about `ms` milliseconds, then once more for a fifth
 * of that: the first pass meets code paths the later frames take for the first time (a
 * larger store, a growth, a longer string), which deoptimizes code compiled on the early
 * frames, and on a loaded machine its recompilation lagged into the first row measured (a
 * `--shape=mesh` run read its 100 B row at 4-10x, and 1.5-1.7x in full runs).
 */
function warmUp(frames: readonly Uint8Array[], contenders: readonly Contender[], ms: number): void {
  for (const pass of [ms, ms / 5]) {
    for (const bytes of frames) {
      for (const c of contenders) {
        const t0 = performance.now();
        do c.run(bytes);
        while (performance.now() - t0 < pass);
      }
    }
  }
}

function formatSection(setup: FormatSetup, rows: readonly Row[]): string {
  const header = [
    'Frame',
    'bytes',
    'nodes full / depth 1',
    'fastest plain decoder (CPU)',
    'its CPU time',
    'full: CPU',
    'full: wall',
    'full: CPU, medians',
    'depth 1: CPU',
    'depth 1: wall',
  ];
  const lines = [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 || i === 3 ? '---' : '---:')).join(' | ')} |`,
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.bytes} | ${r.fullNodes} / ${r.depth1Nodes} | ${r.fastestCpu} | ${fmtTime(r.reference.cpu)} | ${ratio(r.full.cpu, r.reference.cpu)} | ${ratio(r.full.wall, r.reference.wall)} | ${ratio(r.full.cpuMedian, r.reference.cpuMedian)} | ${ratio(r.depth1.cpu, r.reference.cpu)} | ${ratio(r.depth1.wall, r.reference.wall)} |`,
    );
  }
  return [`**${setup.title}**`, '', ...lines, '', ...verdict(setup, rows)].join('\n');
}

/** The shape benchmark's targets, judged on CPU-time ratios of the lowest samples (wall time and medians shown beside). */
function verdict(setup: FormatSetup, rows: readonly Row[]): string[] {
  const full = (r: Row) => r.full.cpu / r.reference.cpu;
  const depth1 = (r: Row) => r.depth1.cpu / r.reference.cpu;
  const docs = rows.filter((r) => r.bytes >= DOC_MIN);
  const frames = rows.filter((r) => r.bytes < DOC_MIN);
  const out: string[] = [];
  const judge = (label: string, list: readonly Row[], value: (r: Row) => number, target: number) => {
    if (!list.length) return;
    const misses = list.filter((r) => value(r) > target);
    const worst = list.reduce((a, b) => (value(b) > value(a) ? b : a));
    out.push(
      `- ${label} (target <= ${target.toFixed(1)}x): worst ${value(worst).toFixed(2)}x (${worst.name}); ${misses.length ? `missed on ${misses.map((r) => `${r.name} ${value(r).toFixed(2)}x`).join(', ')}` : `met on all ${list.length}`}.`,
    );
  };
  judge(`Full index, documents >= ${DOC_MIN} B`, docs, full, FULL_DOC_TARGET);
  if (docs.length) {
    const m = median(docs.map(full));
    out.push(
      `- Full index, median over documents >= ${DOC_MIN} B (target <= ${MEDIAN_DOC_TARGET.toFixed(1)}x): ${m.toFixed(2)}x; ${m <= MEDIAN_DOC_TARGET ? 'met' : 'missed'}.`,
    );
  }
  judge(`Full index, frames of 100 B - 4 KB`, frames, full, FULL_FRAME_TARGET);
  const nested = docs.filter((r) => r.depth1Nodes < r.fullNodes);
  if (setup.depth1Target) judge(`Depth-1 index, nested documents >= ${DOC_MIN} B`, nested, depth1, DEPTH1_TARGET);
  else if (nested.length) {
    const worst = nested.reduce((a, b) => (depth1(b) > depth1(a) ? b : a));
    out.push(
      `- Depth-1 index, nested documents >= ${DOC_MIN} B (reported, no target): worst ${depth1(worst).toFixed(2)}x (${worst.name}), median ${median(nested.map(depth1)).toFixed(2)}x.`,
    );
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}x`;
}

function fmtTarget(bytes: number): string {
  return bytes >= 1 << 20
    ? `${+(bytes / (1 << 20)).toFixed(1)} MB`
    : bytes >= 1024
      ? `${+(bytes / 1024).toFixed(1)} KB`
      : `${bytes} B`;
}
