import { describe, expect, it } from 'vitest';
import { frameLabels } from './frame-labels.js';
import { demoStreams } from '../../demo-server/labelled-frames.js';
import baseline from './labels/baseline.json' with { type: 'json' };

/**
 * Every frame of the demo streams keeps the label it had when the baseline was written
 * (scripts/write-label-baseline.ts): detection may learn new protocols, but a frame that
 * read as something keeps reading as it.
 */
describe('demo frames keep their labels', () => {
  const streams = demoStreams();
  for (const [name, frames] of Object.entries(streams)) {
    it(`${name}: ${frames.length} frames`, () => {
      const was = (baseline as Record<string, string[]>)[name];
      expect(was).toHaveLength(frames.length);
      const now = frameLabels(frames);
      const changed = now.flatMap((label, i) => (label === was[i] ? [] : [`frame ${i}: ${was[i]} → ${label}`]));
      expect(changed).toEqual([]);
    });
  }
});
