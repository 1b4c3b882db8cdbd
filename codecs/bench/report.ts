import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Replaces the section between `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->` in
 * docs/BENCHMARKS.md with a freshly measured table (the `--write` flag of the benchmarks).
 */
export function writeBenchmarkSection(repo: string, name: string, table: string): void {
  const file = path.join(repo, 'docs/BENCHMARKS.md');
  const begin = `<!-- bench:${name}:begin -->`;
  const end = `<!-- bench:${name}:end -->`;
  const doc = readFileSync(file, 'utf8');
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`docs/BENCHMARKS.md lacks the ${begin} / ${end} markers`);
  writeFileSync(file, doc.slice(0, i + begin.length) + '\n' + table + '\n' + doc.slice(j));
  console.error('docs/BENCHMARKS.md updated');
}
