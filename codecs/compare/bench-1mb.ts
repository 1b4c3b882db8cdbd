/**
 * `npx tsx codecs/compare/bench-1mb.ts [runs] [budgetMs]`: the whole comparison — every
 * codec, gzip and deflate sizes, 1 warm-up + `runs` timed runs (default 3), a per-operation
 * time budget (default 100 ms; `-` for none) — on a ~1 MB JSON-like document
 * (codecs/bench/generate.ts). Prints the table, each codec's wall time, and the totals for
 * json-pack's codecs and json-joy's. Target: ≤ 2 s.
 */
import { generateDocument } from '../bench/generate.js';
import { runComparison, isMeasured, type Row } from './compare.js';
import { formatText, formatKeyOverhead } from './format.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { decodeFrame } from '../index.js';
import { keyOverhead } from './keys.js';

const runs = Number(process.argv[2] ?? 3);
const budgetArg = process.argv[3] ?? '100';
const budgetMs = budgetArg === '-' ? undefined : Number(budgetArg);
const doc = generateDocument(1 << 20);
const wall = new Map<string, number>();
const t0 = performance.now();
let last = t0;
const rows: Row[] = await runComparison(doc, {
  runs,
  warmup: 1,
  budgetMs,
  onRow: (row) => {
    const now = performance.now();
    wall.set(row.codec, now - last);
    last = now;
  },
});
const total = performance.now() - t0;
console.log(formatText(rows));
console.log('');
console.log(rows.map((r) => `${r.codec.padEnd(24)} ${wall.get(r.codec)!.toFixed(0).padStart(6)} ms`).join('\n'));
const sum = (family: (f: string) => boolean) => rows.filter((r) => family(r.family)).reduce((s, r) => s + wall.get(r.codec)!, 0);
console.log('');
console.log(`json-pack codecs (JSON, CBOR ×4, MessagePack, UBJSON, Ion, BSON): ${sum((f) => f !== 'json-joy').toFixed(0)} ms`);
console.log(`json-joy codecs (7):                                              ${sum((f) => f === 'json-joy').toFixed(0)} ms`);
console.log(`${rows.length} codecs (${rows.filter(isMeasured).length} measured), runs=${runs} after 1 warm-up, budget ${budgetMs === undefined ? 'none' : `${budgetMs} ms`}: total ${total.toFixed(0)} ms`);

const k0 = performance.now();
const frame = new CborEncoder().encode(doc).slice();
const k = keyOverhead(decodeFrame(frame, { format: 'cbor' }).index!);
console.log('');
console.log(`key overhead of the document as CBOR (${(performance.now() - k0).toFixed(0)} ms):`);
console.log(formatKeyOverhead(k));
