import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every `.ts` / `.tsx` file under `dir` (tests, test helpers and benchmarks excluded: nothing ships them). */
export function shippedSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'test' && name !== 'bench' && name !== 'node_modules') out.push(...shippedSources(full));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}
