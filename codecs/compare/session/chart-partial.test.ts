/**
 * The session chart made a codec that left messages out look cheapest
 * ("Protobuf (inferred): 591,366 B" beside "As captured: 1,361,041 B", 67 of 157 messages,
 * under "lower is better"), and the report's cumulative table did too. A partial series now
 * says "N of M messages" in the legend, the line titles and the table, its line is faded with
 * a hollow end, and a note says why.
 */
import { describe, expect, it } from 'vitest';
import { chartGeometry } from './chart-geometry.js';
import { sessionChart } from './cumulative.js';
import { sessionReportHtml, sessionReportMarkdown, type SessionReportInput } from './report.js';
import type { CodecSizes } from './session.js';

/** 157 messages of 100 bytes as captured; Protobuf encoded 67 of them (40 bytes), 0 for the rest. */
const perCodec: CodecSizes[] = [
  { codec: 'captured', label: 'As captured', sizes: new Int32Array(157).fill(100) },
  {
    codec: 'protobuf',
    label: 'Protobuf (inferred)',
    sizes: Int32Array.from({ length: 157 }, (_, i) => (i % 2 === 0 && i < 134 ? 40 : 0)),
  },
];
const totals = [
  { codec: 'captured', messages: 157, left: 0, leftReason: null },
  { codec: 'protobuf', messages: 67, left: 90, leftReason: 'message 2: seq: int32 where the schema has string' },
];

const input = (): SessionReportInput => ({
  title: 't',
  scope: 's',
  rows: [],
  chart: sessionChart(perCodec, totals, 20),
  connections: [{ connectionId: 'c', url: 'wss://x.test/', extensions: null }],
  machine: { runtime: 'r', os: 'o', cores: 1 },
  engine: 'fflate',
  generatedAt: '2026-01-01T00:00:00.000Z',
});

describe('a codec that left messages out, in the session chart and the report', () => {
  it('the chart data and geometry carry the coverage; complete lines do not change', () => {
    const chart = sessionChart(perCodec, totals, 20);
    expect(chart.series.map((s) => [s.codec, s.messages, s.left])).toEqual([
      ['captured', undefined, undefined],
      ['protobuf', 67, 90],
    ]);
    const g = chartGeometry(chart);
    expect(g.lines.map((l) => [l.partial, l.legend])).toEqual([
      [false, 'As captured: 15,700 B'],
      [true, 'Protobuf (inferred): 2,680 B — 67 of 157 messages'],
    ]);
    expect(g.summary).toContain('Protobuf (inferred) ends at 2.6 KiB, 67 of 157 messages only');
    expect(g.note).toBe(
      'Faded line with a hollow end — Protobuf (inferred), 67 of 157 messages: this codec left messages out, so its line sums only the messages it encoded; lower is better only among codecs that encoded every message.',
    );
    expect(chartGeometry(sessionChart(perCodec.slice(0, 1), totals.slice(0, 1), 20)).note).toBeNull();
  });

  it('Markdown: the cumulative table names the coverage in the column and says why below it', () => {
    const md = sessionReportMarkdown(input());
    expect(md).toContain('| messages | As captured | Protobuf (inferred), 67 of 157 messages |');
    expect(md).toContain(
      'Protobuf (inferred), 67 of 157 messages: this codec left messages out, so its column sums only the messages it encoded',
    );
  });

  it('HTML: the legend and the line title say "67 of 157 messages", the line is faded with a hollow end, the note says why', () => {
    const html = sessionReportHtml(input());
    expect(html).toContain('Protobuf (inferred): 2,680 B — 67 of 157 messages</li>');
    expect(html).toContain('<title>Protobuf (inferred): 2,680 B — 67 of 157 messages</title>');
    expect(html).toMatch(/<polyline [^>]*stroke="#D55E00"[^>]*stroke-opacity="0.5"/);
    expect(html).toMatch(/<circle cx="[\d.]+" cy="[\d.]+" r="4" fill="none" stroke="#D55E00"/);
    expect(html).toContain(
      '<p class="muted">Faded line with a hollow end — Protobuf (inferred), 67 of 157 messages: this codec left messages out',
    );
    expect(html).toContain('As captured: 15,700 B</li>');
  });
});
