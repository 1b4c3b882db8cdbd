/**
 * Writes codecs/reading/labels/baseline.json: every demo frame's label as detection reads it
 * now. Run once on the commit the baseline is taken from (`npx tsx scripts/write-label-baseline.ts`);
 * frame-labels.test.ts then holds later detection to it.
 */
import { writeFileSync } from 'node:fs';
import { frameLabels } from '../codecs/reading/frame-labels.js';
import { demoStreams } from '../demo-server/labelled-frames.js';

const out: Record<string, string[]> = {};
for (const [name, frames] of Object.entries(demoStreams())) out[name] = frameLabels(frames);
writeFileSync(new URL('../codecs/reading/labels/baseline.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
