import { describe, expect, it } from 'vitest';
import { brotliCompressSync, constants } from 'node:zlib';
import { main, type CliIo } from './main.js';

/**
 * The session's brotli column: quality 6 unless asked (quality 11, the library's default, was
 * ~1 ms per small message and most of a 10,000-frame session's CPU time).
 */
const utf8 = new TextEncoder();
const frames = Array.from({ length: 20 }, (_, i) =>
  JSON.stringify({ type: 'tick', seq: i, price: 100 + i / 4, note: 'abc'.repeat(i % 5) }),
);

function har(): Uint8Array {
  const messages = frames.map((data, i) => ({ type: 'receive', time: 1000 + i, opcode: 1, data }));
  const entry = {
    startedDateTime: '2026-11-24T12:00:00.000Z',
    _resourceType: 'websocket',
    request: { method: 'GET', url: 'wss://a.test/ticks', headers: [] },
    response: { status: 101, headers: [] },
    _webSocketMessages: messages,
  };
  return utf8.encode(
    JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] } }),
  );
}

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { out: (t) => (stdout += t), err: (t) => (stderr += t), readFile: () => har(), version: 'test' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const brotliSum = (quality: number): number =>
  frames.reduce(
    (n, f) =>
      n +
      brotliCompressSync(utf8.encode(f), {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: f.length },
      }).length,
    0,
  );

describe('compare --session: brotli quality', () => {
  it('defaults to quality 6 and says so in --json', async () => {
    const out = JSON.parse((await run(['compare', '--session', 'cap.har', '--json', '--codecs', 'captured'])).stdout);
    expect(out.brotliQuality).toBe(6);
    expect(out.totals[0].brotli).toBe(brotliSum(6));
  });

  it('--brotli-quality 11 asks for the slow setting; out of range or without --session is a usage error', async () => {
    const out = JSON.parse(
      (await run(['compare', '--session', 'cap.har', '--json', '--codecs', 'captured', '--brotli-quality', '11']))
        .stdout,
    );
    expect(out.brotliQuality).toBe(11);
    expect(out.totals[0].brotli).toBe(brotliSum(11));
    expect((await run(['compare', '--session', 'cap.har', '--brotli-quality', '12'])).code).toBe(2);
    const noSession = await run(['compare', 'cap.har', '--brotli-quality', '5']);
    expect(noSession.code).toBe(2);
    expect(noSession.stderr).toMatch(/--brotli-quality needs --session/);
  });
});
