/**
 * The view's and the report's sums (groups.ts) are session.ts's totalRow, and the files the
 * inspector page loads never import session.ts's values (it brings every codec; only the
 * worker may load it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSessionComparison, type SessionMessage } from './session.js';
import { perConnection, perDirection, sumRows, totalsOf } from './groups.js';
import { repoPath } from '../../test/helpers/paths.js';

const enc = new TextEncoder();
const messages: SessionMessage[] = Array.from({ length: 90 }, (_, i) => ({
  connectionId: `c${i % 3}`,
  direction: i % 2 ? 'client-to-server' : 'server-to-client',
  opcode: 1,
  data: enc.encode(i === 4 ? 'not json' : JSON.stringify({ i, s: 'abc'.repeat(i % 5) })),
}));

const base = (r: object) => {
  const { codec, messages, size, gzip, deflate, plainWire, wire, left } = r as Record<string, unknown>;
  return { codec, messages, size, gzip, deflate, plainWire, wire, left };
};

describe('session groups', () => {
  it('sumRows of a codec\u2019s connection rows is its total row; per direction and per connection add up to it', async () => {
    const rows = await runSessionComparison(messages, { negotiated: new Map([['c1', 'permessage-deflate']]) });
    for (const total of totalsOf(rows)) {
      const mine = rows.filter((r) => r.codec === total.codec && r.connectionId !== null);
      expect(base(sumRows(mine))).toEqual(base(total));
      const dirs = perDirection(rows).map((d) => d.rows.find((r) => r.codec === total.codec)!);
      expect(dirs.reduce((a, r) => a + r.size, 0)).toBe(total.size);
      const conns = perConnection(rows).map((c) => c.both.find((r) => r.codec === total.codec)!);
      expect(conns.reduce((a, r) => a + r.plainWire.total, 0)).toBe(total.plainWire.total);
    }
  });

  it('the page-side files import session.ts for types only', () => {
    for (const file of [
      'codecs/compare/session/groups.ts',
      'codecs/compare/session/report.ts',
      'codecs/compare/session/chart-geometry.ts',
      'codecs/compare/session/left-out.ts',
      'codecs/compare/session/schema-share.ts',
      'inspector-app/src/components/compare/session/SessionCompare.tsx',
      'inspector-app/src/components/compare/session/SessionTable.tsx',
      'inspector-app/src/components/compare/session/session-run.ts',
      'inspector-app/src/worker/session-compare-job.ts',
    ]) {
      const text = readFileSync(repoPath(file), 'utf8');
      const valueImports = [...text.matchAll(/^import (?!type )[^;]*from '[^']*session\/(session|cumulative)\.js';/gm)];
      expect(valueImports.map((m) => `${file}: ${m[0]}`)).toEqual([]);
    }
  });
});
