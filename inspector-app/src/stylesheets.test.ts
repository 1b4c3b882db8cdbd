import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = path.dirname(fileURLToPath(import.meta.url));

function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? stylesheets(path.join(dir, e.name)) : e.name.endsWith('.css') ? [path.join(dir, e.name)] : [],
  );
}

/** Where a sheet's braces first go wrong (a block left open swallows every rule after it as nested CSS), or null. */
function unbalancedBrace(css: string): string | null {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/'[^'\n]*'|"[^"\n]*"/g, '""');
  // For each open block: whether it is a group rule (@media, @supports…), the only blocks the app nests rules in.
  const open: boolean[] = [];
  let line = 1;
  let prelude = '';
  for (const ch of text) {
    if (ch === '\n') line++;
    if (ch === '{') {
      if (open.length > 0 && !open[open.length - 1]) return `line ${line}: a block opens inside a block`;
      open.push(/^\s*@(media|supports|layer|container)\b/.test(prelude));
      prelude = '';
    } else if (ch === '}') {
      if (open.pop() === undefined) return `line ${line}: a } closes nothing`;
      prelude = '';
    } else if (ch === ';') prelude = '';
    else prelude += ch;
  }
  return open.length === 0 ? null : `${open.length} block(s) left open at the end`;
}

describe('the app stylesheets', () => {
  it('close every block they open (a lost } turned the rest of the bundle into nested rules)', () => {
    const files = stylesheets(srcDir);
    expect(files.length).toBeGreaterThan(5);
    const broken = files
      .map((f) => [path.relative(srcDir, f), unbalancedBrace(readFileSync(f, 'utf8'))] as const)
      .filter(([, problem]) => problem !== null);
    expect(broken).toEqual([]);
  });

  it('finds a block left open', () => {
    expect(unbalancedBrace('.a {\n  color: red;\n\n.b {\n  color: blue;\n}\n')).toBe(
      'line 4: a block opens inside a block',
    );
    expect(unbalancedBrace('.a { color: red; }\n')).toBeNull();
  });
});
