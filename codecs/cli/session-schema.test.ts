import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../test/helpers/cli.js';
import { harBytes, harEntry } from '../test/helpers/har.js';

/** `wirescope compare --session` with the schema codecs, snappy, brotli and a loaded .proto. */
const PROTO =
  'syntax = "proto3";\nmessage Tick { string type = 1; int64 seq = 2; double price = 3; repeated string tags = 4; }\n';

function har(): Uint8Array {
  const messages = Array.from({ length: 12 }, (_, i) => ({
    type: 'receive',
    time: 1000 + i,
    opcode: 1,
    data: JSON.stringify({ type: 'tick', seq: i, price: 100 + i / 4, tags: i % 2 ? ['x'] : [] }),
  }));
  messages.push({
    type: 'receive',
    time: 2000,
    opcode: 1,
    data: JSON.stringify({ type: 'tick', seq: 'late', price: 1, tags: [] }),
  });
  return harBytes([harEntry('wss://a.test/ticks', messages)]);
}

const run = (argv: string[]) => runCliAsync(argv, { 'cap.har': har(), 'ticks.proto': PROTO });

describe('wirescope compare --session: schema codecs, snappy, brotli', () => {
  it('the text table has the schema codec rows, snappy and brotli columns, the amortized schema size and the mismatches', async () => {
    const r = await run(['compare', '--session', 'cap.har']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/snappy each\s+brotli each/);
    expect(r.stdout).toMatch(/^Avro \(inferred\)\s+13\s/m);
    expect(r.stdout).toMatch(/^Protobuf \(inferred\)\s+12 \(\+1 left out\)/m);
    expect(r.stdout).toMatch(
      /Avro \(inferred\): schema \d+ bytes, sent once — amortized over the 13 messages it encoded, [\d.]+ bytes\/message/,
    );
    expect(r.stdout).toMatch(
      /Protobuf \(inferred\): 1 message\(s\) the codec cannot hold: message 13: seq: string where the schema has int32/,
    );
    expect(r.stdout).not.toMatch(/brotli: not in this browser/); // Node has brotli
  });

  it('--json carries snappy, brotli, the schema text and the mismatches; --markdown the same rows', async () => {
    const out = JSON.parse((await run(['compare', '--session', 'cap.har', '--json'])).stdout);
    expect(out.brotli).toBe('zlib (Node)');
    const proto = out.totals.find((t: { codec: string }) => t.codec === 'protobuf');
    expect(typeof proto.snappy).toBe('number');
    expect(typeof proto.brotli).toBe('number');
    expect(proto.schema.text).toMatch(/message Frame/);
    expect(proto.mismatches).toEqual([{ message: 13, reason: 'seq: string where the schema has int32' }]);
    const md = (await run(['compare', '--session', 'cap.har', '--markdown'])).stdout;
    expect(md).toMatch(/\| Protobuf \(inferred\) \| 12 \(\+1 left out\) \|/);
    expect(md).toMatch(/- Avro \(inferred\): schema \d+ bytes/);
  });

  it('--proto adds the real schema row (--message picks the message); usage errors say why', async () => {
    const r = await run(['compare', '--session', 'cap.har', '--proto', 'ticks.proto', '--message', 'Tick']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Protobuf \(\.proto Tick\)\s+12 \(\+1 left out\)/m);
    expect((await run(['compare', '--session', 'cap.har', '--message', 'Tick'])).code).toBe(2);
    const noSession = await run(['compare', 'cap.har', '--proto', 'ticks.proto']);
    expect(noSession.code).toBe(2);
    expect(noSession.stderr).toMatch(/--proto and --message need --session/);
    const missing = await run(['compare', '--session', 'cap.har', '--proto', 'nope.proto']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read nope.proto: ENOENT/);
  });
});
