/**
 * `compare --session` reads each connection's negotiated subprotocol from the capture (HAR
 * response header, wirescope capture's `protocol`) and decodes its frames with it as
 * evidence, as the inspector does: an MQTT PINGREQ (`c0 00`, also CBOR tag 0 of 0) on an
 * `mqtt` connection is the MQTT packet, not a CBOR date.
 */
import { describe, expect, it } from 'vitest';
import { readCaptureSession } from './capture-input.js';
import { serializeCapture } from '../../capture/capture-file.js';
import { decodeFrame } from '../../index.js';
import { compareSession, type SessionRow } from './session.js';

const PINGREQ = Uint8Array.of(0xc0, 0x00);

function har(subprotocol: string): Uint8Array {
  const entry = {
    startedDateTime: '2026-11-24T12:00:00.000Z',
    _resourceType: 'websocket',
    request: { method: 'GET', url: 'wss://broker.test/mqtt', headers: [] },
    response: { status: 101, headers: subprotocol ? [{ name: 'Sec-WebSocket-Protocol', value: subprotocol }] : [] },
    _webSocketMessages: [0, 1, 2].map((i) => ({
      type: 'send',
      time: 1000 + i,
      opcode: 2,
      data: Buffer.from(PINGREQ).toString('base64'),
    })),
  };
  return new TextEncoder().encode(
    JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] } }),
  );
}

async function jsonTotal(messages: Parameters<typeof compareSession>[0]): Promise<SessionRow> {
  const rows: SessionRow[] = [];
  for await (const row of compareSession(messages, { codecs: ['json'] })) rows.push(row);
  return rows.at(-1)!;
}

describe('compare --session: the subprotocol', () => {
  it('is read from a HAR and from a wirescope capture, onto the connection and its messages', () => {
    const fromHar = readCaptureSession(har('mqtt'));
    if ('error' in fromHar) throw new Error(fromHar.error);
    expect(fromHar.connections[0]).toMatchObject({ subprotocol: 'mqtt' });
    expect(fromHar.messages.map((m) => m.subprotocol)).toEqual(['mqtt', 'mqtt', 'mqtt']);
    const capture = serializeCapture(
      [{ connectionId: 'c1', url: 'wss://x/', protocol: 'v12.stomp', extensions: '', time: 1 }],
      [{ connectionId: 'c1', direction: 'received', time: 2, opcode: 'text', data: new TextEncoder().encode('\n') }],
    );
    const fromCapture = readCaptureSession(capture);
    if ('error' in fromCapture) throw new Error(fromCapture.error);
    expect(fromCapture.messages[0].subprotocol).toBe('v12.stomp');
  });

  it('decodes the frames with it: the JSON re-encoding is of the MQTT packet, not of a CBOR tag', async () => {
    const withHint = readCaptureSession(har('mqtt'));
    const without = readCaptureSession(har(''));
    if ('error' in withHint || 'error' in without) throw new Error('capture');
    const packetJson = new TextEncoder().encode(
      JSON.stringify(decodeFrame(PINGREQ, { subprotocol: 'mqtt' }).index!.value(0)),
    ).length;
    expect((await jsonTotal(withHint.messages)).size).toBe(3 * packetJson);
    expect((await jsonTotal(without.messages)).size).not.toBe(3 * packetJson);
  });
});
