import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['codecs/**/*.test.ts'],
    // Property tests walk many random frames; keep them deterministic per run but bounded.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
