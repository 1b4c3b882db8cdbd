/**
 * Run by memory-retention.test.ts as `node --expose-gc --import tsx <this file>`: indexes a
 * large frame of each shape in each format, measures what the index retains (ArrayBuffer
 * bytes beyond the frame, after a full GC) per recorded item, drops the index and then the
 * frame, and checks with FinalizationRegistry and the heap's ArrayBuffer total that neither
 * stays alive. Prints one JSON line per case.
 */
import { SpanIndex, type FormatWalker } from '../../core/span-index.js';
import { shapeValues, SHAPES } from '../../bench/shapes.js';
import { FORMATS } from '../../bench/shapes-bench.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

async function settle(): Promise<void> {
  // Finalizers run in a task after the GC that found their target dead.
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 10));
  }
}

const arrayBuffers = () => process.memoryUsage().arrayBuffers;

const shapes = (process.argv[2] ?? 'mesh,text,tweets').split(',');
const target = Number(process.argv[3] ?? 2 << 20);

// Small frames of every shape: indexing them warms every walker up and leaves module state
// (slabs, caches) at its small-frame level before each measurement.
const small = shapeValues(13, SHAPES, [8192])
  .filter((v) => v.target === 8192)
  .flatMap((v) => FORMATS.map((f) => [f.walker, f.encode(v.value, v.shape.jsonText(v.value))] as const));
const indexSmallFrames = () => {
  for (const [walker, frame] of small) new SpanIndex(frame, walker);
};

for (const { shape, value } of shapeValues(
  13,
  SHAPES.filter((s) => shapes.includes(s.id)),
  [target],
).filter((v) => v.target === target)) {
  for (const f of FORMATS) {
    const result = await measureOne(f.format, shape.id, f.walker, () => f.encode(value, shape.jsonText(value)));
    console.log(JSON.stringify(result));
  }
}

/** `encode` makes the frame, so that nothing here but `bytes` refers to it. */
async function measureOne(format: string, shape: string, walker: FormatWalker, encode: () => Uint8Array) {
  let bytes: Uint8Array | null = encode();
  const collected = new Set<string>();
  const registry = new FinalizationRegistry<string>((what) => collected.add(what));
  indexSmallFrames();
  await settle();
  const before = arrayBuffers();
  let index: SpanIndex | null = new SpanIndex(bytes, walker);
  const items = index.store.size;
  const ok = index.error === null;
  registry.register(index, 'index');
  registry.register(index.store.slab, 'store buffer');
  await settle();
  const retained = arrayBuffers() - before;
  index = null;
  await settle();
  const afterIndex = arrayBuffers() - before;
  registry.register(bytes.buffer, 'frame');
  const frameBytes = bytes.byteLength;
  bytes = null;
  await settle();
  const afterFrame = arrayBuffers() - before;
  const result = {
    format,
    shape,
    ok,
    frameBytes,
    items,
    retainedPerItem: retained / items,
    afterIndex,
    afterFrame,
    collected: [...collected].sort(),
  };
  // Keep the registry alive until its callbacks have run.
  registry.unregister(registry);
  return result;
}
