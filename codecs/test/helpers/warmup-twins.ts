/**
 * Run in a fresh process by compare-warmup.test.ts (a cold JIT, as in a new worker): two
 * identical CBOR codecs under different names, measured one after the other on a
 * ~235-byte value, or with `large` on a ~1 MB document under a 25 ms budget per operation
 * (a cold first call over the budget was kept as the only sample). Prints the rows'
 * fastest samples as JSON.
 */
import { codecByName, type Codec } from '../../compare/codecs.js';
import { isMeasured, runComparison } from '../../compare/compare.js';
import { cpuClock } from '../../compare/timing.js';
import { generateDocument } from '../../bench/generate.js';

export const value = {
  id: 1234,
  type: 'trade',
  symbol: 'BTC-USD',
  price: 43210.5,
  size: 0.0125,
  side: 'buy',
  ts: 1700000000000,
  tags: ['spot', 'maker', 'fast'],
  user: { name: 'alice', id: 'u-77', flags: [true, false, null] },
  note: 'a value of about two hundred and thirty five bytes, like the issue',
};

const twin = (codec: Codec, name: string): Codec => ({ ...codec, name, label: `${codec.label} (${name})` });
const cbor = codecByName('cbor')!;
const large = process.argv.includes('large');
const rows = (
  await runComparison(large ? generateDocument(1 << 20) : value, {
    codecs: [twin(cbor, 'first'), twin(cbor, 'second')],
    runs: 5,
    clock: cpuClock,
    budgetMs: large ? 25 : undefined,
  })
).filter(isMeasured);
console.log(
  JSON.stringify(
    rows.map((r) => ({
      codec: r.codec,
      encodeMinMs: r.encode.minMs,
      decodeMinMs: r.decode!.minMs,
      encodeOps: r.encode.opsPerSec,
      decodeOps: r.decode!.opsPerSec,
    })),
  ),
);
