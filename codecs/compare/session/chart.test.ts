/**
 * The session chart: cumulative bytes per codec whose last points are the
 * codecs' total sizes, geometry inside the plot, and line colours legible on both themes.
 */
import { describe, expect, it } from 'vitest';
import { chartGeometry, CHART_HEIGHT, CHART_WIDTH, SERIES_COLOURS } from './chart-geometry.js';
import { chartFromSizes, cumulativeBytes, samplePositions } from './cumulative.js';
import { runSessionComparison, type CodecSizes, type SessionMessage } from './session.js';

const enc = new TextEncoder();
const messages: SessionMessage[] = Array.from({ length: 250 }, (_, i) => ({
  connectionId: i % 2 ? 'a' : 'b',
  direction: i % 4 === 0 ? 'client-to-server' : 'server-to-client',
  opcode: 1,
  data: enc.encode(
    i === 17 ? '{"broken": ' : JSON.stringify({ n: i, big: i % 50 === 0 ? 'x'.repeat(300) : '', list: [1, 2, 3] }),
  ),
}));

describe('cumulative bytes', () => {
  it('samples evenly and always ends on the last message', () => {
    expect(samplePositions(0, 10)).toEqual([]);
    expect(samplePositions(3, 10)).toEqual([1, 2, 3]);
    const at = samplePositions(1000, 120);
    expect(at).toHaveLength(120);
    expect(at.at(-1)).toBe(1000);
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThan(at[i - 1]);
  });

  it('ends each codec at its total row\u2019s size (a frame that does not decode counts only as captured)', async () => {
    const rows = await runSessionComparison(messages);
    const totals = rows.filter((r) => r.connectionId === null);
    const chart = (await cumulativeBytes(messages, totals))!;
    expect(chart.at.at(-1)).toBe(250);
    // Every codec is charted or listed with why (schema codecs are listed).
    expect([...chart.series.map((s) => s.codec), ...chart.notCharted.map((n) => n.codec)].sort()).toEqual(
      totals.map((t) => t.codec).sort(),
    );
    expect(chart.series.length).toBeGreaterThanOrEqual(4);
    for (const series of chart.series) {
      const t = totals.find((r) => r.codec === series.codec)!;
      expect(series.bytes.at(-1)).toBe(t.size);
      for (let i = 1; i < series.bytes.length; i++) expect(series.bytes[i]).toBeGreaterThanOrEqual(series.bytes[i - 1]);
    }
  });

  it('from the sizes compareSession reports: the same series as re-encoding the session, and the schema codecs too', async () => {
    const perCodec: CodecSizes[] = [];
    const rows = await runSessionComparison(messages, { onCodecSizes: (s) => perCodec.push(s) });
    const totals = rows.filter((r) => r.connectionId === null);
    expect(perCodec.map((s) => s.codec)).toEqual(totals.map((t) => t.codec));
    const notCarried = new Map(totals.filter((t) => t.messages === 0).map((t) => [t.codec, t.leftReason ?? '']));
    const fromSizes = chartFromSizes(perCodec, notCarried);
    const reEncoded = (await cumulativeBytes(messages, totals))!;
    expect(fromSizes.at).toEqual(reEncoded.at);
    for (const s of reEncoded.series) expect(fromSizes.series.find((f) => f.codec === s.codec)).toEqual(s);
    // The schema codecs, inferred from the session, are charted: Protobuf, and Avro (wirescope's own, no longer passed in).
    for (const codec of ['protobuf', 'avro']) {
      const series = fromSizes.series.find((s) => s.codec === codec)!;
      expect(series.bytes.at(-1), codec).toBe(totals.find((t) => t.codec === codec)!.size);
    }
    expect(fromSizes.notCharted).toEqual([]);
  });

  it('lists a codec it cannot encode instead of dropping it', async () => {
    const chart = (await cumulativeBytes(messages.slice(0, 5), [
      { codec: 'captured', label: 'As captured' },
      { codec: 'avro-inferred', label: 'Avro' },
    ]))!;
    expect(chart.series.map((s) => s.codec)).toEqual(['captured']);
    // Named as the table names it, in words a user reads (no internal ids, no "codec registry").
    expect(chart.notCharted).toEqual([
      { codec: 'avro-inferred', label: 'Avro', why: 'its sizes come from a schema inferred from the whole session' },
    ]);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      await cumulativeBytes(messages, [{ codec: 'json', label: 'JSON' }], {
        signal: controller.signal,
        yieldEvery: 10,
      }),
    ).toBeNull();
  });
});

describe('chart geometry', () => {
  const data = {
    at: [100, 200],
    series: [
      { codec: 'captured', label: 'As captured', bytes: [5000, 12000] },
      { codec: 'cbor', label: 'CBOR', bytes: [3000, 7000] },
    ],
    notCharted: [],
  };
  it('keeps every point inside the plot, ticks round, and a summary a screen reader can read', () => {
    const g = chartGeometry(data);
    expect(g.width).toBe(CHART_WIDTH);
    for (const l of g.lines) {
      for (const p of l.points.split(' ')) {
        const [x, y] = p.split(',').map(Number);
        expect(x).toBeGreaterThanOrEqual(g.plot.x0);
        expect(x).toBeLessThanOrEqual(g.plot.x1);
        expect(y).toBeLessThanOrEqual(g.plot.y0);
        expect(y).toBeGreaterThanOrEqual(g.plot.y1);
        expect(y).toBeLessThanOrEqual(CHART_HEIGHT);
      }
    }
    // The UI's units (KB = 1,024 bytes, as in the list and the tables), ticks round in them.
    expect(g.yTicks.map((t) => t.text)).toEqual(['0 B', '5.0 KiB', '10 KiB', '15 KiB']);
    expect(g.summary).toBe(
      'Cumulative message bytes over 200 messages: As captured ends at 12 KiB; CBOR ends at 6.8 KiB.',
    );
  });

  it('an empty session charts nothing without dividing by zero', () => {
    const g = chartGeometry({ at: [], series: [], notCharted: [] });
    expect(g.lines).toEqual([]);
    expect(g.summary).toBe('No codec to chart.');
  });

  it('every line colour has at least 3:1 contrast on the light and the dark background', () => {
    const lum = (hex: string) => {
      const c = [1, 3, 5]
        .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const ratio = (a: string, b: string) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    for (const c of SERIES_COLOURS) {
      expect(ratio(c, '#ffffff')).toBeGreaterThanOrEqual(3);
      expect(ratio(c, '#202124')).toBeGreaterThanOrEqual(3);
    }
  });
});
