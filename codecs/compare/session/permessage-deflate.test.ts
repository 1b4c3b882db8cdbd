import { afterEach, describe, expect, it } from 'vitest';
import { inflateRawSync } from 'node:zlib';
import { WebSocket, WebSocketServer, type PerMessageDeflateOptions } from 'ws';
import type { AddressInfo } from 'node:net';
import {
  CONTEXT_TAKEOVER,
  NO_CONTEXT_TAKEOVER,
  parseDeflateExtension,
  type DeflateParams,
} from './extension-header.js';
import { frameHeaderSize, type Direction } from './framing.js';
import {
  fflateEngine,
  permessageDeflateSizes,
  PermessageDeflateSender,
  SYNC_FLUSH_TAIL,
} from './permessage-deflate.js';
import { zlibEngine } from './zlib-engine.js';
import { startWireTap, type WireMessage, type WireTap } from '../../test/helpers/ws-wire-tap.js';
import { clientMessages, serverMessages } from '../../test/helpers/session-messages.js';

const utf8 = new TextEncoder();
const COUNT = 12;
const sent = { client: clientMessages(COUNT), server: serverMessages(COUNT) };

interface Session {
  readonly extensions: string;
  readonly clientToServer: WireMessage[];
  readonly serverToClient: WireMessage[];
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** A real ws session through the wire tap: the client sends its messages, the server answers each with the next of its own. */
async function wsSession(serverDeflate: PerMessageDeflateOptions, texts = sent): Promise<Session> {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    perMessageDeflate: { threshold: 0, ...serverDeflate },
  });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  cleanup.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  wss.on('connection', (socket) => {
    let next = 0;
    socket.on('message', () => socket.send(texts.server[next++]));
  });
  const tap: WireTap = await startWireTap((wss.address() as AddressInfo).port);
  cleanup.push(() => tap.close());
  const client = new WebSocket(`ws://127.0.0.1:${tap.port}`, { perMessageDeflate: { threshold: 0 } });
  cleanup.push(async () => client.terminate());
  // The negotiated header, as a capture records it (client.extensions only names the extension).
  let extensions = '';
  client.on('upgrade', (response) => (extensions = String(response.headers['sec-websocket-extensions'] ?? '')));
  await new Promise<void>((resolve, reject) => {
    let received = 0;
    client.on('error', reject);
    client.on('message', () => {
      if (++received === texts.server.length) resolve();
    });
    client.on('open', () => {
      for (const m of texts.client) client.send(m);
    });
  });
  return { extensions, clientToServer: tap.clientToServer.messages(), serverToClient: tap.serverToClient.messages() };
}

async function simulated(params: DeflateParams, direction: Direction, texts: string[]) {
  const { sizes, unsupported } = await permessageDeflateSizes(
    texts.map((t) => ({ direction, data: utf8.encode(t) })),
    params,
    zlibEngine(),
  );
  expect(unsupported).toEqual({});
  return sizes as number[];
}

async function expectSimulationEqualsWire(
  serverDeflate: PerMessageDeflateOptions,
  expected: Partial<DeflateParams>,
  texts = sent,
) {
  const session = await wsSession(serverDeflate, texts);
  const parsed = parseDeflateExtension(session.extensions);
  if (!parsed.ok) throw new Error(parsed.error);
  expect(parsed.params).toMatchObject(expected);
  for (const [direction, wire, sentOneWay] of [
    ['client-to-server', session.clientToServer, texts.client],
    ['server-to-client', session.serverToClient, texts.server],
  ] as const) {
    expect(wire).toHaveLength(sentOneWay.length);
    expect(wire.every((m) => m.compressed && m.opcode === 1)).toBe(true);
    const sizes = await simulated(parsed.params, direction, sentOneWay);
    // Per message, then in total, payload and frame headers.
    expect(sizes, direction).toEqual(wire.map((m) => m.payloadLength));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(wire.reduce((a, m) => a + m.payloadLength, 0));
    expect(sizes.map((n) => frameHeaderSize(n, direction))).toEqual(wire.map((m) => m.headerLength));
  }
  return session;
}

describe('permessage-deflate simulation equals the ws package on a real socket', () => {
  it('context takeover (the default), both directions; all three header sizes occur', async () => {
    const s = await expectSimulationEqualsWire({}, { clientNoContextTakeover: false, serverNoContextTakeover: false });
    const headers = new Set(s.serverToClient.map((m) => m.headerLength));
    expect(headers).toEqual(new Set([2, 4, 10]));
    expect(new Set(s.clientToServer.map((m) => m.headerLength))).toEqual(new Set([6]));
  });

  it('client_no_context_takeover and server_no_context_takeover', async () => {
    await expectSimulationEqualsWire(
      { clientNoContextTakeover: true, serverNoContextTakeover: true },
      { clientNoContextTakeover: true, serverNoContextTakeover: true },
    );
  });

  it('server_no_context_takeover only: each direction follows its own parameter', async () => {
    await expectSimulationEqualsWire(
      { serverNoContextTakeover: true },
      { clientNoContextTakeover: false, serverNoContextTakeover: true },
    );
  });

  it('client_max_window_bits=11, server_max_window_bits=10 (zlib engine)', async () => {
    await expectSimulationEqualsWire(
      { clientMaxWindowBits: 11, serverMaxWindowBits: 10 },
      { clientMaxWindowBits: 11, serverMaxWindowBits: 10 },
    );
  });

  it('empty and repeated messages (an empty message after a flush is one byte, 00)', async () => {
    const texts = {
      client: ['{"a":1}', '', '', '{"a":1}', '{"a":1}', ''],
      server: ['', '{"b":2}', '{"b":2}', '', '', '{"b":2}'],
    };
    await expectSimulationEqualsWire({}, {}, texts);
    await expectSimulationEqualsWire({ clientNoContextTakeover: true, serverNoContextTakeover: true }, {}, texts);
  });

  it('context takeover makes repeated records cheaper than no context takeover', async () => {
    const withContext = await simulated(CONTEXT_TAKEOVER, 'client-to-server', sent.client);
    const without = await simulated(NO_CONTEXT_TAKEOVER, 'client-to-server', sent.client);
    expect(withContext.reduce((a, b) => a + b)).toBeLessThan(without.reduce((a, b) => a + b) * 0.6);
  });
});

describe('the zlib engine sizes a fresh stream synchronously', () => {
  it("freshPayloadSize = the stream's payload after a reset, for every window size", async () => {
    const engine = zlibEngine();
    const texts = [...sent.client, ...sent.server, '', '{}', 'x'.repeat(70_000)];
    for (const bits of [9, 10, 12, 15]) {
      const sender = new PermessageDeflateSender(engine, bits, true);
      const want: number[] = [];
      for (const t of texts) want.push((await sender.payload(utf8.encode(t))).length);
      sender.close();
      expect(
        texts.map((t) => engine.freshPayloadSize!(bits, utf8.encode(t))),
        `${bits} bits`,
      ).toEqual(want);
    }
  });
});

describe('the fflate engine (worker, extension)', () => {
  it('writes one valid raw-deflate stream per direction: payloads + tails inflate back to the messages', async () => {
    for (const noContextTakeover of [false, true]) {
      const sender = new PermessageDeflateSender(fflateEngine, 15, noContextTakeover);
      const texts = sent.server;
      const payloads: Uint8Array[] = [];
      for (const t of texts) payloads.push(await sender.payload(utf8.encode(t)));
      if (noContextTakeover) {
        for (let i = 0; i < texts.length; i++)
          expect(inflateRawSync(Buffer.concat([payloads[i], SYNC_FLUSH_TAIL]), { finishFlush: 2 }).toString()).toBe(
            texts[i],
          );
      } else {
        // With context takeover only the whole stream (tails restored) inflates.
        const stream = Buffer.concat(payloads.flatMap((p) => [p, SYNC_FLUSH_TAIL]));
        expect(inflateRawSync(stream, { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString()).toBe(texts.join(''));
      }
    }
  });

  it('reports windows below 15 bits as unsupported instead of simulating them', async () => {
    const r = await permessageDeflateSizes(
      [
        { direction: 'server-to-client', data: utf8.encode('{}') },
        { direction: 'client-to-server', data: utf8.encode('{}') },
      ],
      { ...CONTEXT_TAKEOVER, serverMaxWindowBits: 10 },
      fflateEngine,
    );
    expect(r.sizes[0]).toBeNull();
    expect(r.sizes[1]).toBeGreaterThan(0);
    expect(r.unsupported['server-to-client']).toMatch(/32 KB window/);
  });

  it('stays within 15% of zlib on the test session', async () => {
    for (const params of [CONTEXT_TAKEOVER, NO_CONTEXT_TAKEOVER]) {
      const messages = sent.server.map((t) => ({ direction: 'server-to-client' as const, data: utf8.encode(t) }));
      const f = (await permessageDeflateSizes(messages, params, fflateEngine)).sizes as number[];
      const z = (await permessageDeflateSizes(messages, params, zlibEngine())).sizes as number[];
      const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
      expect(Math.abs(sum(f) - sum(z)) / sum(z)).toBeLessThan(0.15);
    }
  });
});

describe('parseDeflateExtension', () => {
  it('reads the parameters, rejects bad ones', () => {
    expect(parseDeflateExtension('permessage-deflate; client_max_window_bits=12; server_no_context_takeover')).toEqual({
      ok: true,
      params: { ...CONTEXT_TAKEOVER, clientMaxWindowBits: 12, serverNoContextTakeover: true },
    });
    expect(parseDeflateExtension('x-foo, permessage-deflate; client_max_window_bits')).toEqual({
      ok: true,
      params: CONTEXT_TAKEOVER,
    });
    expect(parseDeflateExtension('permessage-deflate; server_max_window_bits=7')).toMatchObject({ ok: false });
    expect(parseDeflateExtension('permessage-deflate; foo')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/foo/),
    });
    expect(parseDeflateExtension('')).toMatchObject({ ok: false });
  });
});

describe('frameHeaderSize', () => {
  it('2 / 4 / 10 bytes, +4 mask client to server', () => {
    expect([0, 125, 126, 65535, 65536].map((n) => frameHeaderSize(n, 'server-to-client'))).toEqual([2, 2, 4, 4, 10]);
    expect(frameHeaderSize(10, 'client-to-server')).toBe(6);
  });
});
