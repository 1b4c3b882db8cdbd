import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * codecs/ tests share one module graph per worker (`isolate: false`): most of them only
 * import pure modules, and loading those again for each of ~180 files cost a third of their
 * time. A test file that replaces modules or globals (vi.mock, vi.spyOn, fake timers …) or
 * imports json-joy's internals (whose import cycles resolve differently in a shared graph)
 * runs isolated, as every other test does; it is found by reading the file, so a new test
 * needs no list kept by hand.
 */
const NEEDS_ISOLATION = /\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers)\b|from 'json-joy/;

function codecsTestFiles(dir = 'codecs'): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f).split('\\').join('/'));
}
const isolatedCodecsTests = codecsTestFiles().filter((f) => NEEDS_ISOLATION.test(readFileSync(f, 'utf8')));

export default defineConfig({
  plugins: [react()],
  test: {
    // Property tests walk many random frames; keep them deterministic per run but bounded.
    testTimeout: 60_000,
    setupFiles: ['inspector-app/test-setup.ts'],
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'codecs-shared',
          include: ['codecs/**/*.test.ts'],
          exclude: isolatedCodecsTests,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Unit tests; component tests pick jsdom with a `@vitest-environment jsdom` comment.
          // Browser tests (e2e/) run in the same `vitest run` after `npm run build`.
          name: 'isolated',
          include: [
            ...isolatedCodecsTests,
            'inspector-app/**/*.test.{ts,tsx}',
            'demo-server/**/*.test.ts',
            'proxy/**/*.test.ts',
            'extension/**/*.test.ts',
            'e2e/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
