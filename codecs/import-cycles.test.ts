import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './test/helpers/cbor.js';
import { shippedSources as sources } from './test/helpers/shipped-sources.js';

/** The file a relative specifier names: `./a.js` is a.ts or a.tsx, `./a` may also be a/index.ts. */
function resolveImport(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return base;
}

/**
 * Relative imports of a file: those that load a module at run time (`import type` and
 * `export type` excluded), or with `typeImports` every one (a type-only cycle still ties two
 * modules together: neither can be read or moved alone).
 */
function imports(file: string, typeImports: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = typeImports
    ? /^(?:import|export)\s+[^;]*?from\s+'(\.[^']+)'/gms
    : /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms;
  return [...text.matchAll(pattern)].map((m) => resolveImport(file, m[1]));
}

/** The import cycles among `files`, each as a list of paths relative to the repo. */
function cycles(files: string[], typeImports = false): string[][] {
  const graph = new Map(files.map((f) => [f, imports(f, typeImports)]));
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

describe('module graph of inspector-app/, extension/ and proxy/', () => {
  it('has no import cycles, type-only imports included', () => {
    const files = [
      ...sources(path.join(repoRoot, 'inspector-app')),
      ...sources(path.join(repoRoot, 'extension')),
      ...sources(path.join(repoRoot, 'proxy')),
    ];
    expect(files.length).toBeGreaterThan(100);
    expect(cycles(files, true)).toEqual([]);
  });
});

describe('layers', () => {
  it('codecs/ imports nothing from the trees built on it (inspector-app/, extension/, proxy/, demo-server/)', () => {
    const above = ['inspector-app', 'extension', 'proxy', 'demo-server'].map((d) => path.join(repoRoot, d) + path.sep);
    const upward = sources(path.join(repoRoot, 'codecs')).flatMap((f) =>
      imports(f, true)
        .filter((dep) => above.some((a) => dep.startsWith(a)))
        .map((dep) => `${path.relative(repoRoot, f)} -> ${path.relative(repoRoot, dep)}`),
    );
    expect(upward).toEqual([]);
  });
});

describe('layers inside codecs/', () => {
  it('codecs/core imports nothing from a format folder (formats answer through their FormatWalker)', () => {
    const core = path.join(repoRoot, 'codecs', 'core') + path.sep;
    const outward = sources(core).flatMap((f) =>
      imports(f, true)
        .filter((dep) => !dep.startsWith(core))
        .map((dep) => `${path.relative(repoRoot, f)} -> ${path.relative(repoRoot, dep)}`),
    );
    expect(outward).toEqual([]);
  });

  /** Product modules' imports of a file inside a folder named `folder`, as "importer -> imported". */
  const productImportsInto = (folder: string): string[] =>
    ['codecs', 'inspector-app', 'extension', 'proxy', 'demo-server']
      .flatMap((d) => sources(path.join(repoRoot, d)))
      .flatMap((f) =>
        imports(f, true)
          .filter((dep) => dep.split(path.sep).includes(folder))
          .map((dep) => `${path.relative(repoRoot, f)} -> ${path.relative(repoRoot, dep)}`),
      );

  it('no product module imports a benchmark (bench/ folders are run, never shipped)', () => {
    expect(productImportsInto('bench')).toEqual([]);
  });

  it('no product module imports a test/ folder (shared test builders are for tests only)', () => {
    expect(productImportsInto('test')).toEqual([]);
  });
});
