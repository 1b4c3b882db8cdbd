/**
 * The report listed only each codec's first left-out message; it must group every
 * left-out message by reason with counts, with the function the inspector uses (left-out.ts).
 * The schema's share per message — none when no message was encoded, and small
 * shares printed with enough digits.
 */
import { describe, expect, it } from 'vitest';
import { runSessionComparison, type SessionMessage, type SessionRow } from './session.js';
import { sessionReportHtml, sessionReportMarkdown, type SessionReportInput } from './report.js';
import { formatSessionText } from './format.js';
import { leftOutText } from './left-out.js';

const utf8 = new TextEncoder();
const json = (text: string): SessionMessage => ({
  connectionId: 'c',
  direction: 'server-to-client',
  opcode: 1,
  data: utf8.encode(text),
});

/** 20 good objects, 55 with a key twice (more than the 50 mismatches a row lists), 3 lists. */
function session(): SessionMessage[] {
  const out: SessionMessage[] = [];
  for (let i = 0; i < 20; i++) out.push(json(`{"id":${i},"name":"n${i}"}`));
  for (let i = 0; i < 55; i++) out.push(json(`{"id":${i},"id":${i + 1}}`));
  for (let i = 0; i < 3; i++) out.push(json('[1,2]'));
  return out;
}

const input = (rows: SessionRow[]): SessionReportInput => ({
  title: 't',
  scope: 's',
  rows,
  chart: null,
  connections: [{ connectionId: 'c', url: 'wss://x.test/', extensions: null }],
  machine: { runtime: 'r', os: 'o', cores: 1 },
  engine: 'fflate',
  generatedAt: '2026-01-01T00:00:00.000Z',
});

describe('left-out messages in the report', () => {
  it('groups every left-out message by reason with counts, past the 50 listed per row', async () => {
    const rows = await runSessionComparison(session(), { snappy: false, codecs: ['captured', 'protobuf'] });
    const total = rows.find((r) => r.codec === 'protobuf' && r.connectionId === null)!;
    expect(total.left).toBe(58);
    const md = sessionReportMarkdown(input(rows));
    const line = md.split('\n').find((l) => l.startsWith('- Protobuf (inferred), 58 of 78 messages:'));
    expect(line).toBeDefined();
    expect(line).toContain('55 messages (first: 21): the frame: the key "id" appears twice');
    expect(line).toContain('3 messages (first: 76): the frame: a list');
    expect(line).not.toContain('more message');
    const html = sessionReportHtml(input(rows));
    expect(html).toContain('<h3>Messages left out</h3>');
    expect(html).toContain('55 messages (first: 21): the frame: the key &quot;id&quot; appears twice');
    // The CLI's text notes use the same grouping.
    expect(formatSessionText(rows, 't')).toContain(leftOutText(total));
  });

  it('the counts survive the sums per direction and connection (groups.ts sumRows)', async () => {
    const messages = session().map((m, i) => ({ ...m, connectionId: i % 2 ? 'a' : 'b' }));
    const rows = await runSessionComparison(messages, { snappy: false, codecs: ['protobuf'] });
    const total = rows.find((r) => r.connectionId === null)!;
    expect(total.leftReasons!.map((g) => g.count)).toEqual([55, 3]);
    expect(total.leftReasons!.map((g) => g.first)).toEqual([21, 76]);
  });
});

describe('schema share per message', () => {
  const schemaRow = (schema: SessionRow['schema'], over: Partial<SessionRow> = {}): SessionRow => ({
    codec: 'protobuf',
    label: 'Protobuf (inferred)',
    connectionId: null,
    direction: null,
    messages: schema!.messages,
    size: 100,
    gzip: 50,
    deflate: 40,
    plainWire: { payload: 100, headers: 2, total: 102 },
    wire: { contextTakeover: null, noContextTakeover: null, negotiated: null },
    left: 0,
    leftReason: null,
    schema,
    ...over,
  });

  it('no share when the codec encoded no message; a small share with two significant digits', () => {
    const none = schemaRow(
      { bytes: 66, text: 'message Frame {}', messages: 0, perMessage: 0 },
      { left: 30, leftReason: 'message 1: x', messages: 0 },
    );
    const small = {
      ...schemaRow({ bytes: 433, text: 'message Frame {}', messages: 10_000, perMessage: 0.0433 }),
      codec: 'avro',
      label: 'Avro (inferred)',
    };
    const md = sessionReportMarkdown(input([none, small]));
    expect(md).toContain('| 66 (no message encoded) |');
    expect(md).toContain('| 433 (0.043/message) |');
    expect(md).not.toMatch(/0\.0\/message/);
    const text = formatSessionText([none, small], 't');
    expect(text).toContain('Protobuf (inferred): schema 66 bytes; it encoded no message (30 left out)');
    expect(text).toContain('0.043 bytes/message');
  });
});
