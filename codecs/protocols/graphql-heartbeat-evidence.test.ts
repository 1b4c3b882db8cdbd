import { describe, expect, it } from 'vitest';
import { decodeFrame, type FrameFormat } from '../index.js';
import { handshakeOf, recognizeProtocol } from './recognize.js';
import { frameLabels } from '../reading/frame-labels.js';
import { runCli } from '../test/helpers/cli.js';
import { harEntry, harText } from '../test/helpers/har.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const PING = '{"type":"ping"}';
const PONG = '{"type":"pong"}';
const INIT = '{"type":"connection_init","payload":{}}';

function recognize(text: string, context: { subprotocol?: string; handshake?: string } = {}) {
  const frame = decodeFrame(utf8(text), { isText: true });
  return recognizeProtocol(frame.index, frame.format as FrameFormat, context);
}

const text = (connectionId: string, t: string) => ({
  connectionId,
  direction: 'received' as const,
  time: 0,
  opcode: 'text' as const,
  data: utf8(t),
});

/**
 * `{"type":"ping"}` is many apps' own heartbeat: it is GraphQL over WebSocket only on a
 * connection that says so (its subprotocol, or a connection_init / connection_ack before it).
 */
describe('a {"type":"ping"} heartbeat claims GraphQL only with evidence', () => {
  it('alone, with no connection context, it names no protocol', () => {
    expect(recognize(PING)).toBeNull();
    expect(recognize(PONG)).toBeNull();
    expect(recognize('{"type":"ping","id":"7"}')).toBeNull();
  });

  it('with the graphql subprotocols or after the handshake it is the graphql keep-alive', () => {
    for (const subprotocol of ['graphql-transport-ws', 'graphql-ws'])
      expect(recognize(PING, { subprotocol }), subprotocol).toMatchObject({ message: 'ping', quiet: true });
    expect(recognize(PING, { handshake: 'graphql' })).toMatchObject({ protocol: 'graphql-ws', quiet: true });
    expect(handshakeOf(recognize(INIT))).toBe('graphql');
    expect(handshakeOf(recognize('{"type":"connection_ack"}'))).toBe('graphql');
    expect(handshakeOf(recognize('{"type":"complete","id":"1"}'))).toBeUndefined();
  });

  it('wirescope inspect: no protocol line for a lone ping; the subprotocol gives it', () => {
    const alone = runCli(['inspect', 'f', '--text'], { f: PING });
    expect(alone.stdout).not.toContain('protocol:');
    const named = runCli(['inspect', 'f', '--text', '--subprotocol', 'graphql-transport-ws'], { f: PING });
    expect(named.stdout).toContain('protocol: graphql-ws ping · keep-alive');
  });

  it("frame labels and inspect --session read the connection's handshake the same way", () => {
    expect(frameLabels([text('a', PING), text('b', INIT), text('b', PING), text('a', PONG)])).toEqual([
      'json decoded',
      'json decoded subscriptions-transport-ws connection_init',
      'json decoded graphql-ws ping',
      'json decoded',
    ]);
    const message = (data: string, time: number) => ({ type: 'receive', time, opcode: 1, data });
    const har = harText([
      harEntry('wss://a.test/plain', [message(PING, 1)], [], '2026-12-07T06:00:00.000Z'),
      harEntry('wss://a.test/graphql', [message(INIT, 2), message(PING, 3)], [], '2026-12-07T06:00:00.000Z'),
    ]);
    const lines = runCli(['inspect', '--session', 'c.har', '--json'], { 'c.har': har })
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { protocol: { protocol: string; message: string } | null });
    expect(lines.map((l) => l.protocol && `${l.protocol.protocol} ${l.protocol.message}`)).toEqual([
      null,
      'subscriptions-transport-ws connection_init',
      'graphql-ws ping',
    ]);
  });
});
