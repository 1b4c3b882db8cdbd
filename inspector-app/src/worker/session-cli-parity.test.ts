import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../../codecs/cli/main';
import { serializeCapture } from '../../../codecs/capture/capture-file';
import type { SessionRow } from '../../../codecs/compare/session/session';
import { importCaptureFile } from '../state/import-file';
import { WorkerHandlers } from './handlers';
import { framesOf, runSessionCompare } from './session-compare-job';
import { listReading } from './session-frame-reading';
import type { IngestFrame, SessionScope } from './api';

/**
 * The CLI's `compare --session` read each frame alone, so the frames that
 * continue a connection's zlib stream (`00 00 ff ff`, no header) did not decode there while
 * the inspector read them as `json (zlib stream)`: the same HAR gave JSON 139 (+18 left
 * out) in the CLI and 155 (+2) in the inspector. Both now read a connection's frames in
 * order with the same stream state and detection evidence (codecs/reading/).
 */
const enc = new TextEncoder();
const u8 = (b: Uint8Array) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/** Messages of one zlib stream, each sync-flushed: only the first has the `78 …` header. */
async function zlibStream(messages: readonly string[]): Promise<Uint8Array[]> {
  const handle = zlib.createDeflate();
  let pending: Buffer[] = [];
  handle.on('data', (c: Buffer) => pending.push(c));
  const out: Uint8Array[] = [];
  for (const m of messages) {
    handle.write(Buffer.from(m));
    await new Promise<void>((r) => handle.flush(zlib.constants.Z_SYNC_FLUSH, () => r()));
    out.push(u8(Buffer.concat(pending)));
    pending = [];
  }
  handle.close();
  return out;
}

type Frame = {
  connectionId: string;
  direction: 'sent' | 'received';
  time: number;
  opcode: 'text' | 'binary';
  data: Uint8Array;
};

/**
 * Two connections, interleaved: JSON text on `a` (one broken frame), a zlib stream of JSON on
 * `b` whose last message inflates to broken JSON (left out by both, by its frame number).
 */
async function capture(): Promise<Uint8Array> {
  const texts = Array.from({ length: 12 }, (_, i) =>
    JSON.stringify({ op: 0, seq: i, d: { user: `u${i}`, tags: ['x', 'y'].slice(0, i % 3) } }),
  );
  const stream = await zlibStream([...texts, '{"op":']);
  const frames: Frame[] = [];
  let t = 1;
  for (let i = 0; i < 13; i++) {
    if (i < 12)
      frames.push({
        connectionId: 'a',
        direction: i % 3 ? 'received' : 'sent',
        time: t++,
        opcode: 'text',
        data: enc.encode(i === 7 ? '{"broken": ' : JSON.stringify({ type: 'tick', seq: i, price: 100 + i / 4 })),
      });
    frames.push({ connectionId: 'b', direction: 'received', time: t++, opcode: 'binary', data: stream[i] });
  }
  return serializeCapture(
    [
      { connectionId: 'a', url: 'wss://x.test/a', protocol: '', extensions: '', time: 0 },
      { connectionId: 'b', url: 'wss://x.test/b', protocol: '', extensions: '', time: 0 },
    ],
    frames,
  );
}

async function cliTotals(bytes: Uint8Array, extra: string[] = []): Promise<SessionRow[]> {
  let out = '';
  const io: CliIo = { out: (t) => (out += t), err: () => {}, readFile: () => bytes, version: 'test' };
  expect(await main(['compare', '--session', 'c.wscap', '--json', ...extra], io)).toBe(0);
  return JSON.parse(out).totals;
}

/** The inspector's path: the file imported, every frame read as its list row, the scope compared in the worker. */
async function workerTotals(
  bytes: Uint8Array,
  scope: SessionScope = { kind: 'all' },
): Promise<{ totals: SessionRow[]; frames: IngestFrame[] }> {
  const imported = importCaptureFile(bytes);
  if ('error' in imported) throw new Error(imported.error);
  const h = new WorkerHandlers();
  imported.frames.forEach((f, i) => {
    const frame: IngestFrame = {
      frameId: i + 1,
      connectionId: f.connectionId,
      direction: f.direction,
      time: f.time,
      opcode: f.opcode,
      data: f.data,
    };
    h.store.add(frame);
    h.summarize(frame);
  });
  const totals: SessionRow[] = [];
  const frames = framesOf(h.store.all(), scope);
  await runSessionCompare(frames, {
    negotiated: {},
    signal: new AbortController().signal,
    sink: {
      progress: () => {},
      rows: (rows) => totals.push(...rows.filter((r) => r.connectionId === null)),
      end: (e) => expect(e.error).toBeNull(),
    },
    read: listReading(h.store),
  });
  return { totals, frames };
}

const figures = (rows: readonly SessionRow[]) =>
  rows.map((r) => ({ codec: r.codec, messages: r.messages, left: r.left, size: r.size }));

describe('compare --session reads frames as the inspector does', () => {
  it('the same capture: identical messages, left out and size per codec', async () => {
    const bytes = await capture();
    const cli = await cliTotals(bytes);
    const { totals } = await workerTotals(bytes);
    expect(figures(cli)).toEqual(figures(totals));
    // The stream's messages are values in both: only the broken text frame and the broken stream message are left out.
    expect(cli.find((r) => r.codec === 'json')).toMatchObject({ messages: 23, left: 2 });
  }, 60_000);

  it('one connection: the same figures in the CLI (--connection) and the inspector (its scope)', async () => {
    const bytes = await capture();
    const cli = await cliTotals(bytes, ['--connection', '2']);
    const { totals } = await workerTotals(bytes, { kind: 'connection', connectionId: 'b' });
    expect(figures(cli)).toEqual(figures(totals));
  }, 60_000);
});

/**
 * Counted within the scope compared, "message N" was not the list's frame N: with one connection
 * chosen "message 77" was the list's frame #138 and nothing linked the two. Left-out
 * messages are now named by the list's frame number in the inspector and by the position in
 * the capture file in the CLI — the same number for a capture imported whole.
 */
describe('left-out messages are named by the number the user can find', () => {
  // Frame 15 (connection a's 8th) is broken JSON; frame 25 (connection b's 13th) inflates to broken JSON.
  const leftOut = (rows: readonly SessionRow[], codec: string) =>
    rows.find((r) => r.codec === codec)!.leftReasons!.map((g) => g.first);

  it('the inspector, one connection: the list\u2019s frame number, not the position in the scope', async () => {
    const { totals, frames } = await workerTotals(await capture(), { kind: 'connection', connectionId: 'b' });
    expect(frames.at(-1)!.frameId).toBe(25);
    expect(leftOut(totals, 'json')).toEqual([25]);
    expect(totals.find((r) => r.codec === 'json')!.mismatches!.map((m) => m.message)).toEqual([25]);
  }, 60_000);

  it('the CLI, --connection: the position in the capture file; the whole capture gives the inspector\u2019s numbers', async () => {
    const bytes = await capture();
    expect(leftOut(await cliTotals(bytes, ['--connection', '2']), 'json')).toEqual([25]);
    const cli = await cliTotals(bytes);
    // Both are broken JSON: one reason, values and offsets aside (left-out.ts), first 15; both listed.
    const listed = (rows: readonly SessionRow[]) =>
      rows.find((r) => r.codec === 'json')!.mismatches!.map((m) => m.message);
    expect(leftOut(cli, 'json')).toEqual([15]);
    expect(listed(cli)).toEqual([15, 25]);
    const worker = (await workerTotals(bytes)).totals;
    expect(leftOut(cli, 'json')).toEqual(leftOut(worker, 'json'));
    expect(listed(cli)).toEqual(listed(worker));
  }, 60_000);
});
