/**
 * The shareable session report: its totals are the sums of its rows, all
 * frame- and capture-derived text is escaped in the HTML, and the CLI writes it.
 */
import { describe, expect, it } from 'vitest';
import { runSessionComparison, type SessionMessage } from './session.js';
import { cumulativeBytes } from './cumulative.js';
import { escapeHtml, sessionReportHtml, sessionReportMarkdown, type SessionReportInput } from './report.js';
import { main, type CliIo } from '../../cli/main.js';
import { serializeCapture } from '../../capture/capture-file.js';

const enc = new TextEncoder();
const HOSTILE_ID = 'c"><script>alert(1)</script>';
const HOSTILE_URL = 'wss://evil.test/?q="><img src=x onerror=alert(2)>&x=<svg onload=alert(3)>';
const messages: SessionMessage[] = Array.from({ length: 180 }, (_, i) => ({
  connectionId: i % 3 === 0 ? HOSTILE_ID : i % 3 === 1 ? 'plain' : 'third|pipe',
  direction: i % 2 ? 'client-to-server' : 'server-to-client',
  opcode: i % 5 === 0 ? 2 : 1,
  data:
    i % 5 === 0
      ? Uint8Array.of(0xa1, 0x61, 0x6b, 0x18, i)
      : enc.encode(i === 7 ? '{"cut": [1,' : JSON.stringify({ i, msg: '<b>hi</b>'.repeat(i % 4) })),
}));

async function input(): Promise<SessionReportInput> {
  const negotiated = new Map([['plain', 'permessage-deflate; client_no_context_takeover']]);
  const rows = await runSessionComparison(messages, { negotiated });
  const chart = await cumulativeBytes(
    messages,
    rows.filter((r) => r.connectionId === null),
  );
  return {
    title: 'Report <test>',
    scope: `connection ${HOSTILE_URL}`,
    rows,
    chart,
    connections: [
      { connectionId: HOSTILE_ID, url: HOSTILE_URL, extensions: null },
      { connectionId: 'plain', url: 'wss://ok.test/', extensions: 'permessage-deflate; client_no_context_takeover' },
      { connectionId: 'third|pipe', url: '', extensions: '' },
    ],
    machine: { runtime: 'Mozilla/5.0 <Agent>', os: 'Linux x86_64', cores: 2 },
    engine: 'fflate',
    generatedAt: '2026-11-24T18:00:00.000Z',
    elapsedMs: 1234,
  };
}

/** The Markdown tables: heading → codec label → cells. */
function tables(md: string): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  let heading = '';
  for (const line of md.split('\n')) {
    if (line.startsWith('## ')) heading = line.slice(3);
    else if (
      line.startsWith('| ') &&
      !line.startsWith('| codec') &&
      !line.startsWith('| :') &&
      !line.startsWith('| messages') &&
      !line.startsWith('| ---')
    ) {
      const cells = line.slice(2, -2).split(' | ');
      if (!out.has(heading)) out.set(heading, new Map());
      out.get(heading)!.set(cells[0], cells.slice(1));
    }
  }
  return out;
}
const num = (cell: string): number | null =>
  cell === '—' ? null : Number(cell.replace(/ \(.*\)$/, '').replace(/,/g, ''));

describe('session report', () => {
  it('Markdown: the totals equal the sums of the per-connection rows and of the per-direction rows', async () => {
    const i = await input();
    const md = sessionReportMarkdown(i);
    const t = tables(md);
    const totals = t.get('Session totals')!;
    expect([...totals.keys()].slice(0, 4)).toEqual(['As captured', 'JSON', 'CBOR', 'MessagePack']);
    expect(totals.size).toBe(i.rows.filter((r) => r.connectionId === null).length);
    const connectionTables = [...t.keys()].filter((h) => h.startsWith('Connection '));
    const directionTables = [...t.keys()].filter((h) => h.startsWith('All connections, '));
    expect(connectionTables.length).toBe(6);
    expect(directionTables.length).toBe(2);
    // The schema (rows of schema codecs carry one) is sent once per codec, not per connection: that column does not add up.
    const titles = md
      .split('\n')
      .find((l) => l.startsWith('| codec'))!
      .slice(2, -2)
      .split(' | ')
      .slice(1);
    const schemaCol = titles.indexOf('schema (sent once)');
    for (const [codec, cells] of totals) {
      for (const [col, cell] of cells.entries()) {
        if (col === schemaCol) continue;
        const total = num(cell);
        for (const parts of [connectionTables, directionTables]) {
          const figures = parts.map((h) => num(t.get(h)!.get(codec)![col]));
          if (total === null) expect(figures.some((f) => f === null)).toBe(true);
          else expect(figures.reduce<number>((a, f) => a + (f ?? NaN), 0)).toBe(total);
        }
      }
    }
    // Only "plain" recorded a header: the negotiated column of the totals has a dash and its reason.
    expect(totals.get('As captured')!.at(-1)).toBe('—');
    expect(md).toMatch(/does not record the Sec-WebSocket-Extensions/);
    expect(md).toContain('Mozilla/5.0 \\<Agent\\>; Linux x86\\_64; 2 logical cores');
    expect(md).toContain('Comparison time: 1.23 s');
    // A pipe in a connection id cannot break a table row.
    expect(md).toContain('third\\|pipe');
  });

  it('HTML: every frame- and capture-derived string is escaped; nothing runs or loads', async () => {
    const i = await input();
    const html = sessionReportHtml(i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<svg onload/i);
    // The attacker's text is there, as text: no quote closes an attribute, no tag opens.
    expect(html).not.toContain('"><img');
    expect(html).not.toContain('"><script');
    expect(html).toContain('onerror=alert(2)&gt;');
    expect(html).toContain(escapeHtml(HOSTILE_URL));
    expect(html).toContain(escapeHtml(HOSTILE_ID));
    expect(html).toContain('Report &lt;test&gt;');
    expect(html).toContain('Mozilla/5.0 &lt;Agent&gt;');
    expect(html).toContain('Content-Security-Policy" content="default-src \'none\'');
    // The chart is inline SVG with its accessible summary.
    expect(html).toMatch(
      /<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 640 280" role="img" aria-label="Cumulative message bytes over 180 messages/,
    );
    expect((html.match(/<polyline /g) ?? []).length).toBe(i.chart!.series.length);
  });

  it('HTML: the totals table carries the same figures as the Markdown', async () => {
    const i = await input();
    const md = tables(sessionReportMarkdown(i)).get('Session totals')!;
    const html = sessionReportHtml(i);
    const section = html.slice(
      html.indexOf('<caption>Session totals</caption>'),
      html.indexOf('</table>', html.indexOf('<caption>Session totals</caption>')),
    );
    for (const [codec, cells] of md) {
      const row = section.slice(section.indexOf(`<th scope="row">${codec}</th>`));
      const tds = [...row.slice(0, row.indexOf('</tr>')).matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
      expect(tds).toEqual(cells.map((c) => c.replace(/\\/g, '')));
    }
  });
});

describe('wirescope compare --session --report', () => {
  const capture = serializeCapture(
    [{ connectionId: 'x', url: 'wss://x.test/<b>', protocol: '', extensions: 'permessage-deflate', time: 1 }],
    messages.slice(0, 30).map((m, i) => ({
      connectionId: 'x',
      direction: m.direction === 'client-to-server' ? 'sent' : 'received',
      time: 1 + i,
      opcode: m.opcode === 1 ? 'text' : 'binary',
      data: m.data,
    })),
  );
  async function run(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const written: { path: string; text: string }[] = [];
    const io: CliIo = {
      out: (t) => (stdout += t),
      err: (t) => (stderr += t),
      readFile: () => capture,
      version: 'test',
      writeFile: (path, text) => written.push({ path, text }),
      machine: () => ({ runtime: 'Node test', os: 'TestOS', cores: 4 }),
    };
    const code = await main(argv, io);
    return { code, stdout, stderr, written };
  }

  it('writes Markdown or HTML by the file name, with the machine and the negotiated header', async () => {
    const md = await run(['compare', '--session', 'c.wscap', '--report', 'out.md']);
    expect(md.code).toBe(0);
    expect(md.written).toHaveLength(1);
    expect(md.written[0].path).toBe('out.md');
    expect(md.written[0].text).toContain('Node test; TestOS; 4 logical cores');
    expect(md.written[0].text).toContain('extensions: permessage-deflate');
    expect(md.stderr).toContain('report written to out.md');
    const html = await run(['compare', '--session', 'c.wscap', '--report=out.HTML']);
    expect(html.written[0].text).toMatch(/^<!doctype html>/);
    expect(html.written[0].text).toContain('wss://x.test/&lt;b&gt;');
    // The report's session totals are the ones stdout prints.
    const printed = html.stdout.split('\n').find((l) => l.trim().startsWith('As captured'))!;
    const size = printed.trim().split(/\s{2,}/)[2];
    expect(md.written[0].text).toContain(`| As captured | 30 | ${size} |`);
  });

  it('refuses a report name it cannot tell the format of, and --report without --session', async () => {
    const bad = await run(['compare', '--session', 'c.wscap', '--report', 'out.txt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/name an \.md or \.html file/);
    expect(bad.written).toHaveLength(0);
    const noSession = await run(['compare', 'frame.cbor', '--report', 'out.md']);
    expect(noSession.code).toBe(2);
    expect(noSession.stderr).toMatch(/--report needs --session/);
  });
});

describe('a codec with no messages in the report', () => {
  it('shows "—" in every size and wire column, never 0', async () => {
    // 'protobuf-loaded' without a .proto: no message has bytes (Avro used to be such a row
    // in the browser; it runs everywhere now).
    const rows = await runSessionComparison(messages.slice(0, 20), { codecs: ['captured', 'protobuf-loaded'] });
    const md = sessionReportMarkdown({ ...(await input()), rows, chart: null });
    const loaded = tables(md).get('Session totals')!.get('Protobuf (.proto)')!;
    expect(loaded.slice(1).every((c) => c === '—')).toBe(true);
  });
});
