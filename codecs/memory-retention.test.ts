import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { helpersDir } from './test/helpers/paths.js';

/**
 * What a span index keeps alive, measured in a child `node --expose-gc` (helpers/retained-memory.ts):
 * after a full GC, the ArrayBuffer bytes an index of a ~2 MB frame holds beyond the frame,
 * per recorded item; then that dropping the index releases its store (FinalizationRegistry
 * and the ArrayBuffer total agree) with no other frame indexed since, and that dropping the
 * frame releases the frame (no module keeps the last one).
 */
const script = path.join(helpersDir, 'retained-memory.ts');

interface Result {
  format: string;
  shape: string;
  ok: boolean;
  frameBytes: number;
  items: number;
  retainedPerItem: number;
  afterIndex: number;
  afterFrame: number;
  collected: string[];
}

describe('memory held by an index', () => {
  // number-dense (mesh), text-heavy (text), many-keyed objects (tweets), in every format
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, 'mesh,text,tweets', String(2 << 20)],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const results: Result[] = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

  it('the measuring script ran', () => {
    expect(run.stderr).not.toMatch(/Error/);
    expect(results).toHaveLength(9);
    for (const r of results) expect(r.ok, `${r.format} ${r.shape}`).toBe(true);
  });

  it('retains at most 40 bytes per item', () => {
    for (const r of results)
      expect(r.retainedPerItem, `${r.format} ${r.shape}: ${r.items} items`).toBeLessThanOrEqual(40);
  });

  it('retains nothing of its store once dropped', () => {
    for (const r of results) {
      expect(r.collected, `${r.format} ${r.shape}`).toEqual(expect.arrayContaining(['index', 'store buffer']));
      expect(r.afterIndex, `${r.format} ${r.shape}: bytes still held`).toBeLessThanOrEqual(64 << 10);
    }
  });

  it('retains nothing of the frame once index and frame are dropped', () => {
    for (const r of results) {
      expect(r.collected, `${r.format} ${r.shape}`).toContain('frame');
      expect(r.afterFrame, `${r.format} ${r.shape}: bytes still held`).toBeLessThanOrEqual(-r.frameBytes + (64 << 10));
    }
  });
});
