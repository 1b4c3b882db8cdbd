import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    // Unit tests; component tests pick jsdom with a `@vitest-environment jsdom` comment.
    // Browser tests (e2e/) run in the same `vitest run` after `npm run build`.
    include: [
      'codecs/**/*.test.ts',
      'inspector-app/**/*.test.{ts,tsx}',
      'demo-server/**/*.test.ts',
      'proxy/**/*.test.ts',
      'extension/**/*.test.ts',
      'e2e/**/*.test.ts',
    ],
    // Property tests walk many random frames; keep them deterministic per run but bounded.
    testTimeout: 60_000,
    setupFiles: ['inspector-app/test-setup.ts'],
    pool: 'forks',
  },
});
