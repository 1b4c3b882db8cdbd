import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './helpers/cbor.js';

/** Every `.ts` file under `dir` (tests and benchmarks excluded: nothing imports them). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'test' && name !== 'bench') out.push(...sources(full));
    } else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Relative imports that load a module at run time (`import type` and `export type` excluded unless `withTypes`). */
function runtimeImports(file: string, withTypes = false): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const pattern = withTypes
    ? /^(?:import|export)\s+[^;]*?from\s+'(\.[^']+)'/gms
    : /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms;
  for (const m of text.matchAll(pattern)) {
    out.push(path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')));
  }
  return out;
}

/** The import cycles among `files`, each as a list of paths relative to the repo. */
function cycles(files: string[], withTypes = false): string[][] {
  const graph = new Map(files.map((f) => [f, runtimeImports(f, withTypes)]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  // Iterative depth-first search; a back edge to an open file closes a cycle.
  for (const start of files) {
    if (state.has(start)) continue;
    const stack: { file: string; next: number }[] = [{ file: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1];
      const deps = graph.get(top.file) ?? [];
      if (top.next >= deps.length) {
        state.set(top.file, 'done');
        stack.pop();
        continue;
      }
      const dep = deps[top.next++];
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open') {
        const from = stack.findIndex((s) => s.file === dep);
        found.push(stack.slice(from).map((s) => path.relative(repoRoot, s.file)));
      } else if (!state.has(dep)) {
        state.set(dep, 'open');
        stack.push({ file: dep, next: 0 });
      }
    }
  }
  return found;
}

describe('module graph of codecs/', () => {
  it('has no import cycles (crdt/describe.ts and crdt/patch-walker.ts imported each other)', () => {
    expect(cycles(sources(path.join(repoRoot, 'codecs')))).toEqual([]);
  });

  it('has no cycles through type imports either (a type lives in a leaf module both sides import)', () => {
    expect(cycles(sources(path.join(repoRoot, 'codecs')), true)).toEqual([]);
  });
});
