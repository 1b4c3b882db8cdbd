import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import {
  compareSession,
  runSessionComparison,
  WIRE_VARIANTS,
  type SessionMessage,
  type SessionRow,
} from './session.js';
import { permessageDeflateSizes } from './permessage-deflate.js';
import { CONTEXT_TAKEOVER, NO_CONTEXT_TAKEOVER, parseDeflateExtension } from './extension-header.js';
import { frameHeaderSize } from './framing.js';
import { zlibEngine } from './zlib-engine.js';
import { clientMessages, serverMessages } from '../../test/helpers/session-messages.js';

const utf8 = new TextEncoder();

/** Two connections interleaved, both directions, text frames; connection b also sends CBOR binary frames. */
function session(): SessionMessage[] {
  const out: SessionMessage[] = [];
  const ca = clientMessages(8, 1),
    sa = serverMessages(8, 2, -1);
  const cb = clientMessages(6, 3),
    sb = serverMessages(6, 4, -1);
  const cbor = new CborEncoder();
  for (let i = 0; i < 8; i++) {
    out.push({ connectionId: 'a', direction: 'client-to-server', opcode: 1, data: utf8.encode(ca[i]) });
    if (i < 6) out.push({ connectionId: 'b', direction: 'client-to-server', opcode: 1, data: utf8.encode(cb[i]) });
    out.push({ connectionId: 'a', direction: 'server-to-client', opcode: 1, data: utf8.encode(sa[i]) });
    if (i < 6)
      out.push({ connectionId: 'b', direction: 'server-to-client', opcode: 2, data: cbor.encode(JSON.parse(sb[i])) });
  }
  return out;
}

const rowsOf = (rows: SessionRow[], codec: string) => rows.filter((r) => r.codec === codec && r.connectionId !== null);
const totalOf = (rows: SessionRow[], codec: string) => rows.find((r) => r.codec === codec && r.connectionId === null)!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('compareSession', () => {
  it('session totals equal the sums of the rows, per codec, for every size and wire variant', async () => {
    const rows = await runSessionComparison(session(), {
      negotiated: new Map([['a', 'permessage-deflate; server_no_context_takeover']]),
    });
    for (const codec of ['captured', 'json', 'cbor', 'msgpack']) {
      const parts = rowsOf(rows, codec);
      const total = totalOf(rows, codec);
      expect(parts).toHaveLength(4); // 2 connections × 2 directions
      for (const field of ['messages', 'size', 'gzip', 'deflate', 'left'] as const)
        expect(total[field], `${codec} ${field}`).toBe(sum(parts.map((r) => r[field])));
      expect(total.plainWire.total).toBe(sum(parts.map((r) => r.plainWire.total)));
      for (const variant of ['contextTakeover', 'noContextTakeover'] as const) {
        const t = total.wire[variant]!;
        if ('unsupported' in t) throw new Error(t.unsupported);
        expect(t.total).toBe(sum(parts.map((r) => (r.wire[variant] as { total: number }).total)));
        expect(t.total).toBe(t.payload + t.headers);
      }
      // Connection b has no known header: the total cannot claim a negotiated size.
      expect(parts.find((r) => r.connectionId === 'a')!.wire.negotiated).not.toBeNull();
      expect(parts.find((r) => r.connectionId === 'b')!.wire.negotiated).toBeNull();
      expect(total.wire.negotiated).toBeNull();
      expect(total.messages).toBe(28);
    }
  });

  it('each row equals an independent computation: one deflate stream per connection and direction', async () => {
    const messages = session();
    const rows = await runSessionComparison(messages, { codecs: ['captured', 'json'], engine: zlibEngine() });
    for (const row of rows.filter((r) => r.connectionId !== null)) {
      const mine = messages.filter((m) => m.connectionId === row.connectionId && m.direction === row.direction);
      const bytes =
        row.codec === 'captured'
          ? mine.map((m) => m.data)
          : mine.map((m) =>
              utf8.encode(JSON.stringify(m.opcode === 1 ? JSON.parse(new TextDecoder().decode(m.data)) : null)),
            );
      if (row.codec === 'json' && row.connectionId === 'b' && row.direction === 'server-to-client') continue; // CBOR frames: checked by size below
      expect(row.size).toBe(sum(bytes.map((b) => b.length)));
      expect(row.deflate).toBe(sum(bytes.map((b) => deflateSync(b).length)));
      for (const [variant, params] of [
        ['contextTakeover', CONTEXT_TAKEOVER],
        ['noContextTakeover', NO_CONTEXT_TAKEOVER],
      ] as const) {
        const { sizes } = await permessageDeflateSizes(
          bytes.map((data) => ({ direction: row.direction!, data })),
          params,
          zlibEngine(),
        );
        const expected = {
          payload: sum(sizes as number[]),
          headers: sum((sizes as number[]).map((n) => frameHeaderSize(n, row.direction!))),
        };
        expect(row.wire[variant], `${row.codec} ${row.connectionId} ${row.direction} ${variant}`).toEqual({
          ...expected,
          total: expected.payload + expected.headers,
        });
      }
    }
    // CBOR frames re-encoded as JSON: the same values, so the same JSON as connection b's text would have been.
    const bJson = rows.find((r) => r.codec === 'json' && r.connectionId === 'b' && r.direction === 'server-to-client')!;
    expect(bJson.size).toBe(
      sum(serverMessages(6, 4, -1).map((t) => utf8.encode(JSON.stringify(JSON.parse(t))).length)),
    );
  });

  it('uses the negotiated parameters; an unsupported window is reported, not faked', async () => {
    const messages = session().filter((m) => m.connectionId === 'a');
    const header = 'permessage-deflate; server_max_window_bits=10; client_no_context_takeover';
    const negotiated = new Map([['a', header]]);
    const zl = await runSessionComparison(messages, { codecs: ['captured'], engine: zlibEngine(), negotiated });
    const params = (parseDeflateExtension(header) as { ok: true; params: typeof CONTEXT_TAKEOVER }).params;
    for (const row of rowsOf(zl, 'captured')) {
      const mine = messages.filter((m) => m.direction === row.direction);
      const { sizes } = await permessageDeflateSizes(mine, params, zlibEngine());
      expect((row.wire.negotiated as { payload: number }).payload).toBe(sum(sizes as number[]));
    }
    const ff = await runSessionComparison(messages, { codecs: ['captured'], negotiated });
    const s2c = rowsOf(ff, 'captured').find((r) => r.direction === 'server-to-client')!;
    expect(s2c.wire.negotiated).toEqual({ unsupported: expect.stringMatching(/32 KB window/) });
    expect(totalOf(ff, 'captured').wire.negotiated).toEqual({ unsupported: expect.stringMatching(/32 KB window/) });
    const bad = await runSessionComparison(messages, {
      codecs: ['captured'],
      negotiated: new Map([['a', 'permessage-deflate; server_max_window_bits=99']]),
    });
    expect(totalOf(bad, 'captured').wire.negotiated).toEqual({
      unsupported: expect.stringMatching(/does not read.*window bits/),
    });
  });

  it('frames that do not decode and values a codec cannot carry are counted, not thrown; control frames are left out', async () => {
    const messages: SessionMessage[] = [
      { connectionId: 'x', direction: 'server-to-client', opcode: 1, data: utf8.encode('{"a":1}') },
      { connectionId: 'x', direction: 'server-to-client', opcode: 2, data: Uint8Array.of(0xbf, 0x61, 0x61) }, // CBOR map without its break
      { connectionId: 'x', direction: 'server-to-client', opcode: 9, data: Uint8Array.of(1, 2) }, // ping
      {
        connectionId: 'x',
        direction: 'server-to-client',
        opcode: 2,
        data: Uint8Array.of(0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02),
      }, // duplicate key
    ];
    const rows = await runSessionComparison(messages);
    const captured = totalOf(rows, 'captured');
    expect(captured.messages).toBe(3);
    expect(captured.size).toBe(7 + 3 + 7);
    const json = totalOf(rows, 'json');
    expect(json.messages).toBe(1);
    expect(json.left).toBe(2);
    expect(json.leftReason).toMatch(/^message 2: .*at byte 3/);
    expect(rowsOf(rows, 'cbor')[0].left).toBe(2);
  });

  it('reports progress and stops when the signal aborts', async () => {
    const messages = Array.from({ length: 5 }, () => session()).flat();
    const controller = new AbortController();
    const progress: number[] = [];
    const rows: SessionRow[] = [];
    for await (const row of compareSession(messages, {
      yieldEvery: 20,
      signal: controller.signal,
      onProgress: (p) => progress.push(p.done),
    })) {
      rows.push(row);
      if (row.codec === 'json') controller.abort();
    }
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(rows.some((r) => r.codec === 'json')).toBe(true);
    expect(rows.some((r) => r.codec === 'cbor' || r.codec === 'msgpack')).toBe(false);
    expect(WIRE_VARIANTS).toContain('negotiated');
  });
});

describe('a connection that negotiated no permessage-deflate', () => {
  it('its "as negotiated" wire size is the plain wire size', async () => {
    const rows = await runSessionComparison(session(), {
      codecs: ['captured'],
      negotiated: new Map([
        ['a', ''],
        ['b', 'x-webkit-deflate-frame'],
      ]),
    });
    for (const r of rows) {
      expect(r.wire.negotiated).toEqual(r.plainWire);
    }
  });
});
