import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { serializeCapture } from '../capture/capture-file.js';
import { clientMessages, serverMessages } from '../test/helpers/session-messages.js';
import { runCliOn } from '../test/helpers/cli.js';
import { harBytes, harEntry } from '../test/helpers/har.js';

const run = runCliOn;

const utf8 = new TextEncoder();
const EXT = 'permessage-deflate; client_max_window_bits=15; server_no_context_takeover';
const cbor = new CborEncoder();
const client = clientMessages(5);
const server = serverMessages(5, 2, -1);

/** Chrome's HAR shape: one entry per socket, text as text, binary as base64. */
function har(extra: object[] = []): Uint8Array {
  const entry = (url: string, ext: string, messages: object[]) =>
    harEntry(url, messages, ext ? [{ name: 'Sec-WebSocket-Extensions', value: ext }] : []);
  const a = client.flatMap((c, i) => [
    { type: 'send', time: 1000 + i, opcode: 1, data: c },
    { type: 'receive', time: 1000 + i + 0.5, opcode: 1, data: server[i] },
  ]);
  const b = server.map((s, i) => ({
    type: 'receive',
    time: 2000 + i,
    opcode: 2,
    data: Buffer.from(cbor.encode(JSON.parse(s))).toString('base64'),
  }));
  return harBytes([entry('wss://a.test/feed', EXT, a), entry('wss://b.test/bin', '', [...b, ...extra])]);
}

const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);

describe('wirescope compare --session', () => {
  it('reads a HAR: totals per codec equal the captured bytes and the sums of the rows', async () => {
    const r = await run(['compare', '--session', 'cap.har', '--json'], har());
    expect(r.stderr).not.toMatch(/wirescope:/); // progress only
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.capture).toMatchObject({ kind: 'har', messages: 15 });
    const captured = out.totals.find((t: { codec: string }) => t.codec === 'captured');
    const binary = sum(server.map((s) => cbor.encode(JSON.parse(s)).length));
    expect(captured.size).toBe(sum([...client, ...server].map((t) => utf8.encode(t).length)) + binary);
    for (const total of out.totals) {
      const rows = out.rows.filter((row: { codec: string }) => row.codec === total.codec);
      expect(rows).toHaveLength(3); // a: both directions; b: server → client
      expect(total.size).toBe(sum(rows.map((row: { size: number }) => row.size)));
      expect(total.wire.contextTakeover.total).toBe(
        sum(rows.map((row: { wire: { contextTakeover: { total: number } } }) => row.wire.contextTakeover.total)),
      );
      // Only connection a recorded its extension header.
      expect(total.wire.negotiated).toBeNull();
      expect(
        rows
          .filter((row: { wire: { negotiated: unknown } }) => row.wire.negotiated !== null)
          .map((row: { connectionId: string }) => row.connectionId),
      ).toEqual(['har-0', 'har-0']);
    }
    expect(out.totals.map((t: { codec: string }) => t.codec)).toEqual([
      'captured',
      'json',
      'cbor',
      'msgpack',
      'avro',
      'protobuf',
    ]);
  });

  it('--connection picks one connection by index or id; an unknown one is a usage error', async () => {
    const byIndex = JSON.parse((await run(['compare', '--session', 'x', '--connection', '1', '--json'], har())).stdout);
    const byId = JSON.parse((await run(['compare', '--session', 'x', '--connection=har-0', '--json'], har())).stdout);
    expect(byIndex.totals).toEqual(byId.totals);
    expect(byIndex.capture.messages).toBe(10);
    // One connection with a known header: the negotiated total exists and uses server_no_context_takeover.
    const captured = byIndex.totals.find((t: { codec: string }) => t.codec === 'captured');
    const s2c = byIndex.rows.find(
      (row: { codec: string; direction: string }) => row.codec === 'captured' && row.direction === 'server-to-client',
    );
    expect(captured.wire.negotiated.total).toBeGreaterThan(0);
    expect(s2c.wire.negotiated).toEqual(s2c.wire.noContextTakeover);
    const withoutSession = await run(['compare', 'x', '--connection', '1'], har());
    expect(withoutSession.code).toBe(2);
    expect(withoutSession.stderr).toMatch(/--connection needs --session/);
    const bad = await run(['compare', '--session', 'x', '--connection', '3'], har());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no connection 3; the capture has 1 = har-0 \(wss:\/\/a\.test\/feed\), 2 = har-1/);
  });

  it('reads a wirescope capture and writes text and Markdown tables', async () => {
    const frames = client.map((c, i) => ({
      connectionId: 'c1',
      direction: 'sent' as const,
      time: i,
      opcode: 'text' as const,
      data: utf8.encode(c),
    }));
    const file = serializeCapture(
      [{ connectionId: 'c1', url: 'ws://x', protocol: '', extensions: 'permessage-deflate', time: 0 }],
      frames,
    );
    const text = await run(['compare', '--session', 'cap.wirescope'], file);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^wirescope capture: 5 messages on 1 connection\n/);
    expect(text.stdout).toMatch(/Connection c1, client → server/);
    expect(text.stdout).toMatch(/As captured/);
    const md = await run(['compare', '--session', 'cap.wirescope', '--markdown', '--codecs', 'captured,cbor'], file);
    expect(md.stdout).toMatch(/^## wirescope capture/);
    expect(md.stdout).toMatch(/\| codec \| messages \| size \|/);
    expect(md.stdout).not.toMatch(/MessagePack/);
  });

  it('malformed input: problems on stderr with where they are, what parsed still compared, exit 1', async () => {
    const r = await run(
      ['compare', '--session', 'x', '--json'],
      har([{ type: 'receive', time: 3000, opcode: 2, data: '%%%' }]),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/entries\[1\]: message 5: binary data is not valid base64.*at character 0/);
    expect(JSON.parse(r.stdout).capture.messages).toBe(15);
    const notCapture = await run(['compare', '--session', 'x'], utf8.encode('[1,2]'));
    expect(notCapture.code).toBe(1);
    expect(notCapture.stderr).toMatch(/not a HAR file or wirescope capture/);
    const badCodec = await run(['compare', '--session', 'x', '--codecs', 'nope'], har());
    expect(badCodec.code).toBe(2);
  });
});

describe('a capture that records "none negotiated"', () => {
  it('compare --session shows the plain wire size as negotiated, for a wirescope capture and a HAR', async () => {
    const frames = client.map((c, i) => ({
      connectionId: 'c1',
      direction: 'sent' as const,
      time: i,
      opcode: 'text' as const,
      data: utf8.encode(c),
    }));
    const info = [
      { connectionId: 'c1', url: 'ws://x', protocol: '', extensions: '', extensionsRecorded: true, time: 0 },
    ];
    const { buildHar } = await import('../capture/har.js');
    for (const file of [serializeCapture(info, frames), utf8.encode(buildHar(info, frames))]) {
      const out = JSON.parse((await run(['compare', '--session', 'x', '--json'], file)).stdout);
      const captured = out.totals.find((t: { codec: string }) => t.codec === 'captured');
      expect(captured.wire.negotiated).toEqual(captured.plainWire);
    }
  });
});
