/**
 * A lane skips the joint warm-up when the sender's probe already found the value large
 * (lanes.ts → LaneSettings.jointWarmup false): warmTogether would only encode the first
 * codec again to find out (one cold 1 MB JSON encode per lane, 30–75 ms, before its first row).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codecByName } from './codecs.js';
import { LaneRunner } from './lane.js';
import { generateDocument } from '../bench/generate.js';

describe('lane joint warm-up after the sender’s probe', () => {
  afterEach(() => vi.restoreAllMocks());
  const value = generateDocument(4_000);
  const names = ['json', 'cbor', 'msgpack'];

  async function jsonWrites(jointWarmup: boolean | undefined): Promise<number> {
    const write = vi.spyOn(codecByName('json')!, 'write');
    const runner = new LaneRunner(value, { runs: 1, warmup: 1, jointWarmup }, names);
    for await (const row of runner.measure(['cbor'], [])) void row;
    const n = write.mock.calls.length;
    write.mockRestore();
    return n;
  }

  it('encodes the first codec for the joint warm-up by default, not when the probe said large', async () => {
    expect(await jsonWrites(undefined)).toBeGreaterThan(0);
    expect(await jsonWrites(false)).toBe(0);
  });
});
