/**
 * The floor under the line "depth-1 index <= 0.3x json-pack decode" on the small nested
 * seed payloads (33 B and 864 B; 3.3 KB for comparison). Not product code: a model of the
 * least work any depth-1 index must do, timed beside json-pack's decode in one run.
 *
 * - *floor: heads only*: one pass over the frame that reads every head, checks every
 *   declared length against the bytes that remain, counts items through an Int32Array
 *   stack and returns one small result object. No UTF-8 check, nothing recorded, no index
 *   object, no store, definite lengths only (the payloads have nothing else).
 * - *floor: heads + UTF-8*: the same, plus the strict UTF-8 check of every text string that
 *   an index must make (invalid UTF-8 is one of the errors the issue requires), with the
 *   cheapest check we have (`isValidText` below).
 * - *fixed cost*: our depth-0 index of the one-byte frame `00`: index, store and walk setup
 *   with no frame content to walk.
 * - *span index (depth 1)*: the real thing, as in `npm run bench`.
 *
 * If the floor with UTF-8 is near 0.3x, no validating index can meet the target: it must
 * also record the root and its children and hand out an index. Process-to-process
 * variation is large on a shared VM (json-pack's decode of the 33-byte payload measured
 * 0.3-0.7 us across runs), so run it several times.
 *
 * Usage: npm run bench:depth1-floor
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder.js';
import { SpanIndex } from '../core/span-index.js';
import { findInvalidUtf8 } from '../core/utf8.js';
// The walker's own head reading: HEAD_LENGTH is the head length by initial byte, 0 for what
// its fast loops leave alone (tags, indefinite lengths, reserved values, the break, two-byte
// simple values); readArg reads a head's argument.
import { cborWalker, HEAD_LENGTH, readArg } from '../cbor/walker.js';
import { measure, fmtTime, type Contender } from './measure.js';

const repo = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const seedsPath = path.resolve(repo, '../shared/payloads/seed-payloads.json');
if (!existsSync(seedsPath)) throw new Error(`missing ${seedsPath}`);
const seeds: { name: string; data: unknown }[] = JSON.parse(readFileSync(seedsPath, 'utf8'));
const NAMES = ['Small object, 44 bytes', 'Typical object, 993 bytes', 'Large object, 3741 bytes'];

interface FloorResult {
  readonly end: number;
  readonly error: string | null;
}

const MAX_NESTING = 1024;
const itemsLeft = new Int32Array(MAX_NESTING);

/**
 * Strict UTF-8 validity, as cheap as we know how: short ASCII runs inline, four bytes per
 * test; long strings and any non-ASCII byte go to the shared validator, whose DataView is
 * cached across calls on the same bytes (optimistic: a real index makes one per frame).
 */
function isValidText(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (end - start < 64) {
    while (i + 4 <= end && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3]) < 0x80) i += 4;
    while (i < end && bytes[i] < 0x80) i++;
  }
  return i === end || findInvalidUtf8(bytes, i, end) < 0;
}

function floorSkip(bytes: Uint8Array, checkText: boolean): FloorResult {
  const len = bytes.length;
  let pos = 0;
  let top = 0;
  itemsLeft[0] = 1;
  for (;;) {
    if (itemsLeft[top] === 0) {
      if (top === 0) break;
      top--;
      continue;
    }
    if (pos >= len) return { end: pos, error: 'truncated' };
    const ib = bytes[pos];
    const head = HEAD_LENGTH[ib];
    if (head === 0 || pos + head > len) return { end: pos, error: 'head not handled or cut' };
    pos += head;
    itemsLeft[top]--;
    if (ib < 0x40 || ib >= 0xc0) continue; // integers, floats, simple values: the head is all
    const arg = head === 1 ? ib & 31 : readArg(bytes, pos - head + 1, head - 1);
    if (ib >= 0x80) {
      if (arg === 0) continue;
      // Every item takes a byte at least: a larger count is a lie (and would not fit the stack).
      if (arg > len - pos) return { end: pos, error: 'count exceeds input' };
      if (top + 1 === MAX_NESTING) return { end: pos, error: 'nesting' };
      itemsLeft[++top] = ib >= 0xa0 ? arg * 2 : arg;
    } else {
      if (arg > len - pos) return { end: pos, error: 'length exceeds input' };
      if (checkText && ib >= 0x60 && !isValidText(bytes, pos, pos + arg)) return { end: pos, error: 'invalid UTF-8' };
      pos += arg;
    }
  }
  return { end: pos, error: pos === len ? null : 'trailing bytes' };
}

const jsonPack = new CborDecoder();
const oneByte = new Uint8Array([0]);
const contenders: Contender[] = [
  { name: 'json-pack decode', run: (b) => jsonPack.decode(b) },
  { name: 'span index (depth 1)', run: (b) => new SpanIndex(b, cborWalker, { depth: 1 }) },
  { name: 'floor: heads only', run: (b) => floorSkip(b, false) },
  { name: 'floor: heads + UTF-8', run: (b) => floorSkip(b, true) },
  { name: 'fixed cost (index of `00`)', run: () => new SpanIndex(oneByte, cborWalker, { depth: 0 }) },
];

const encoder = new CborEncoder();
const header = ['Payload', 'CBOR bytes', ...contenders.map((c) => c.name)];
const rows = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
for (const name of NAMES) {
  const seed = seeds.find((s) => s.name === name);
  if (!seed) throw new Error(`no seed payload named "${name}"`);
  const bytes = encoder.encode(seed.data).slice();
  // The floor must really have read the whole payload, or its time says nothing.
  for (const checkText of [false, true]) {
    const r = floorSkip(bytes, checkText);
    if (r.error || r.end !== bytes.length) throw new Error(`floor skip failed on ${name}: ${r.error} at ${r.end}`);
  }
  if (!new SpanIndex(bytes, cborWalker, { depth: 1 }).ok) throw new Error(`index failed on ${name}`);
  const times = measure(bytes, contenders, 21);
  const cells = times.map((t, i) => (i === 0 ? fmtTime(t) : `${fmtTime(t)} (${(t / times[0]).toFixed(2)}x)`));
  rows.push(`| ${name} | ${bytes.length} | ${cells.join(' | ')} |`);
}
console.log('Median time per call; ratios to json-pack decode in the same run (target for depth 1: <= 0.3x).\n');
console.log(rows.join('\n'));
