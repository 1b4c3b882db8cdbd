import { describe, expect, it } from 'vitest';
import { brotliCompressSync, constants } from 'node:zlib';
import { runCliOn } from '../test/helpers/cli.js';
import { harBytes, harEntry } from '../test/helpers/har.js';

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
  return harBytes([harEntry('wss://a.test/ticks', messages)]);
}

const run = (argv: string[]) => runCliOn(argv, har());

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
