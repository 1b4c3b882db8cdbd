import { describe, expect, it } from 'vitest';
import { main, type CliIo } from './main';
import { serializeCapture } from '../capture/capture-file';

/**
 * The terminal table printed `0` in every size column of a codec that
 * encoded nothing (`Protobuf (inferred)  0 (+75 left out)  0  0  0 …`), as if its messages
 * cost nothing; the CLI's --report and the inspector show "—" (no message in this codec).
 */
const enc = new TextEncoder();
// A key that is not an identifier: the inferred Protobuf schema holds none of these frames.
const capture = serializeCapture(
  [{ connectionId: 'x', url: 'wss://x.test/', protocol: '', extensions: '', time: 0 }],
  Array.from({ length: 6 }, (_, i) => ({
    connectionId: 'x',
    direction: 'received' as const,
    time: i + 1,
    opcode: 'text' as const,
    data: enc.encode(JSON.stringify({ 'trace-id': `t${i}`, seq: i })),
  })),
);

async function run(...extra: string[]): Promise<string> {
  let out = '';
  const io: CliIo = { out: (t) => (out += t), err: () => {}, readFile: () => capture, version: 'test' };
  expect(await main(['compare', '--session', 'c.wscap', ...extra], io)).toBe(0);
  return out;
}

describe('a codec that encoded no message shows "—", not 0', () => {
  it('the text table', async () => {
    const rows = (await run()).split('\n').filter((l) => l.startsWith('Protobuf (inferred) '));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const cells = row
        .slice('Protobuf (inferred)'.length)
        .trim()
        .split(/\s{2,}/);
      expect(cells[0]).toBe('0 (+6 left out)');
      // size, gzip, deflate, snappy, brotli, wire and the three permessage-deflate columns.
      expect(cells.slice(1)).toEqual(Array(9).fill('—'));
    }
    // A codec that encoded its messages keeps its figures.
    expect((await run()).split('\n').find((l) => l.startsWith('JSON '))).not.toContain('—');
  }, 60_000);

  it('the Markdown table', async () => {
    const row = (await run('--markdown')).split('\n').find((l) => l.startsWith('| Protobuf (inferred) |'))!;
    expect(
      row
        .split('|')
        .slice(3, -1)
        .map((c) => c.trim()),
    ).toEqual(Array(9).fill('—'));
  }, 60_000);
});
