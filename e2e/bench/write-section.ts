/** `--write`: the `bench:ui` section of docs/BENCHMARKS.md, appended (with a heading) the first time. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeBenchmarkSection } from '../../codecs/bench/report.js';

export function writeUiSection(repo: string, table: string): void {
  const file = path.join(repo, 'docs/BENCHMARKS.md');
  const doc = readFileSync(file, 'utf8');
  if (!doc.includes('<!-- bench:ui:begin -->')) {
    const intro =
      'The web inspector (dist/app) in headless Chromium, fed by a local `ws` server (`e2e/bench/ui-bench.ts`). Long tasks come from a buffered `longtask` PerformanceObserver; "painted" is the task after the next animation frame.';
    writeFileSync(
      file,
      `${doc.replace(/\n*$/, '')}\n\n## Inspector UI in Chromium (\`npm run bench:ui\`)\n\n${intro}\n\n<!-- bench:ui:begin -->\n<!-- bench:ui:end -->\n`,
    );
  }
  writeBenchmarkSection(repo, 'ui', table);
}
