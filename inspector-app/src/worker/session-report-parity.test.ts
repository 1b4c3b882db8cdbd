import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../../codecs/cli/main';
import { serializeCapture } from '../../../codecs/capture/capture-file';
import type { SessionChartData } from '../../../codecs/compare/session/cumulative';
import { runSessionCompare } from './session-compare-job';
import type { IngestFrame } from './api';

/**
 * The CLI's report drew its chart with a second pass that could only re-encode
 * JSON / CBOR / MessagePack, so its SVG had 4 lines and its Markdown table 4 columns where
 * the inspector's had 6 (Avro and Protobuf). Both now chart the sizes the comparison itself
 * computed (cumulative.ts `sessionChart`): the same series from the same session.
 */
const enc = new TextEncoder();
const frames: IngestFrame[] = Array.from({ length: 40 }, (_, i) => ({
  frameId: i + 1,
  connectionId: 'x',
  direction: i % 4 === 0 ? 'sent' : 'received',
  time: 1 + i,
  opcode: 'text',
  data: enc.encode(
    JSON.stringify({
      type: 'tick',
      seq: i,
      price: 100 + i / 8,
      tags: ['a', 'b'].slice(0, i % 3),
      ...(i % 5 === 0 ? { note: `n${i}` } : {}),
    }),
  ),
}));

async function cliReport(name: string): Promise<string> {
  const capture = serializeCapture(
    [{ connectionId: 'x', url: 'wss://x.test/', protocol: '', extensions: '', time: 1 }],
    frames.map((f) => ({
      connectionId: f.connectionId,
      direction: f.direction,
      time: f.time,
      opcode: f.opcode,
      data: f.data,
    })),
  );
  const written: string[] = [];
  const io: CliIo = {
    out: () => {},
    err: () => {},
    readFile: () => capture,
    version: 'test',
    writeFile: (_p, text) => written.push(text),
    machine: () => ({ runtime: 'Node', os: 'OS', cores: 1 }),
  };
  expect(await main(['compare', '--session', 'c.wscap', '--report', name], io)).toBe(0);
  return written[0];
}

async function workerChart(): Promise<SessionChartData> {
  let chart: SessionChartData | null = null;
  await runSessionCompare(frames, {
    negotiated: {},
    signal: new AbortController().signal,
    sink: {
      progress: () => {},
      rows: () => {},
      end: (e) => (chart = e.chart),
    },
  });
  return chart!;
}

describe('the CLI report charts what the inspector charts', () => {
  it('Markdown: the cumulative table has every codec, with the worker\u2019s figures', async () => {
    const md = await cliReport('out.md');
    const chart = await workerChart();
    expect(chart.series.map((s) => s.label)).toEqual([
      'As captured',
      'JSON',
      'CBOR',
      'MessagePack',
      'Avro (inferred)',
      'Protobuf (inferred)',
    ]);
    const header = md.split('\n').find((l) => l.startsWith('| messages |'))!;
    expect(header).toBe(`| messages | ${chart.series.map((s) => s.label).join(' | ')} |`);
    const last = md
      .split('\n')
      .filter((l) => l.startsWith(`| ${chart.at.at(-1)} |`))
      .at(-1)!;
    expect(last).toBe(
      `| ${chart.at.at(-1)} | ${chart.series.map((s) => s.bytes.at(-1)!.toLocaleString('en-US')).join(' | ')} |`,
    );
  }, 60_000);

  it('HTML: one line per codec in the SVG', async () => {
    const html = await cliReport('out.html');
    expect(html.match(/<polyline /g)).toHaveLength(6);
    expect(html).toContain('Avro (inferred): ');
    expect(html).toContain('Protobuf (inferred): ');
  }, 60_000);
});
