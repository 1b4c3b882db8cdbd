import { describe, expect, it } from 'vitest';
import { runCli } from '../test/helpers/cli.js';
import { harEntry, harText } from '../test/helpers/har.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../test/helpers/paths.js';

const utf8 = new TextEncoder();
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/** A HAR entry: one WebSocket connection (its subprotocol when one was negotiated) and its messages. */
const entry = (url: string, protocol: string | null, messages: object[]) =>
  harEntry(
    url,
    messages,
    protocol ? [{ name: 'Sec-WebSocket-Protocol', value: protocol }] : [],
    '2026-12-07T06:00:00.000Z',
  );

/** A HAR of two connections: SignalR with the MessagePack hub protocol, and MQTT (aedes writes a packet a part per frame). */
function har(): string {
  const text = (type: 'send' | 'receive', data: string, time: number) => ({ type, time, opcode: 1, data });
  const binary = (type: 'send' | 'receive', hex: string, time: number) => ({ type, time, opcode: 2, data: b64(hex) });
  return harText([
    entry('wss://a.test/hub', null, [
      text('send', '{"protocol":"messagepack","version":1}\x1e', 1),
      text('receive', '{}\x1e', 2),
      binary('receive', '029106', 3),
      binary(
        'send',
        `16950180a130a9${Buffer.from('JoinGroup').toString('hex')}91a5${Buffer.from('lobby').toString('hex')}`,
        4,
      ),
    ]),
    entry('wss://a.test/mqtt', 'mqtt', [binary('receive', '20', 5), binary('receive', '020000', 6)]),
  ]);
}

describe('wirescope inspect --session', () => {
  it("reads every frame with its connection's context, one JSON line per frame", () => {
    const r = runCli(['inspect', '--session', 'c.har', '--json'], { 'c.har': har() });
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => [x.format, x.verdict, x.protocol?.protocol ?? null, x.protocol?.message ?? null])).toEqual([
      ['signalr', 'decoded', 'signalr', 'handshake request'],
      ['signalr', 'decoded', 'signalr', 'handshake response'],
      ['signalr', 'decoded', 'signalr', 'Ping'],
      ['signalr', 'decoded', 'signalr', 'Invocation'],
      ['mqtt', 'decoded', null, null],
      ['mqtt', 'decoded', 'mqtt', 'CONNACK'],
    ]);
    // The 3-byte ping follows the handshake: certain.
    expect(rows[2].confidence).toBeGreaterThan(0.99);
    expect(rows[4]).toMatchObject({ partOfPacket: 'MQTT, part of CONNACK packet', error: null });
    expect(rows[3]).toMatchObject({ frame: 4, direction: 'sent', opcode: 'binary', bytes: 23 });
    // The frame that completes the CONNACK reads as the packet, put back together from both frames.
    expect(rows[5]).toMatchObject({ reassembledFrom: [5, 6] });
  });

  it('prints a line per frame, an MQTT part named as such', () => {
    const r = runCli(['inspect', '--session', 'c.har'], { 'c.har': utf8.encode(har()) });
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[2]).toMatch(/^#3 \S+ ↓ binary 3 B {2}signalr · signalr Ping$/);
    expect(lines[4]).toMatch(/MQTT, part of CONNACK packet$/);
  });

  it('labels connections 1, 2, … and a frame no format reads by its verdict alone: unknown, empty', () => {
    const fixture = readFileSync(path.join(repoRoot, 'codecs/capture/fixtures/mitmproxy-websocket.har'));
    const lines = runCli(['inspect', '--session', 'm.har'], { 'm.har': fixture }).stdout.trim().split('\n');
    expect(lines[3]).toMatch(/^#4 1 ↑ binary 256 B {2}unknown — no format reads the whole frame/);
    expect(lines[4]).toBe('#5 1 ↑ text 0 B  empty');
    expect(lines.join('\n')).not.toMatch(/unknown unknown|unknown empty|har-0/);
    const two = runCli(['inspect', '--session', 'c.har'], { 'c.har': utf8.encode(har()) })
      .stdout.trim()
      .split('\n');
    expect(two.map((l) => l.split(' ')[1])).toEqual(['1', '1', '1', '1', '2', '2']);
  });

  it('names every part of a split MQTT packet by its type, the middle ones too (no guessed cbor / msgpack / text)', () => {
    const capture = harText([
      entry(
        'ws://a.test/mqtt',
        'mqtt',
        ['20', '02', '0000', '00'].map((hex, i) => ({ type: 'receive', time: i + 1, opcode: 2, data: b64(hex) })),
      ),
    ]);
    const text = runCli(['inspect', '--session', 'c.har'], { 'c.har': capture });
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/1 B {2}MQTT, part of CONNACK packet$/);
    expect(lines[1]).toMatch(/1 B {2}MQTT, part of CONNACK packet$/);
    expect(lines[2]).toMatch(/mqtt CONNACK \(reassembled from frames #1, #2, #3\)$/);
    // A byte after the packet that cannot start one (type 0 is reserved) is malformed, not a part.
    expect(lines[3]).not.toMatch(/part of/);
    const json = runCli(['inspect', '--session', 'c.har', '--json'], { 'c.har': capture });
    const rows = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows[1]).toMatchObject({
      format: 'mqtt',
      verdict: 'decoded',
      partOfPacket: 'MQTT, part of CONNACK packet',
      error: null,
    });
  });

  it('reads a Socket.IO attachment no format reads whole as binary, not as malformed yjs, and exits 0', () => {
    const capture = harText([
      entry('ws://a.test/socket.io/?EIO=4&transport=websocket', null, [
        { type: 'receive', time: 1, opcode: 1, data: '451-["uploaded",{"_placeholder":true,"num":0}]' },
        { type: 'receive', time: 2, opcode: 2, data: b64('01020304') },
      ]),
    ]);
    const text = runCli(['inspect', '--session', 'c.har'], { 'c.har': capture });
    expect(text.code).toBe(0);
    expect(text.stdout.trim().split('\n')[1]).toMatch(
      /4 B {2}binary · socket.io attachment 0 of frame #1 \(uploaded\)$/,
    );
    const json = runCli(['inspect', '--session', 'c.har', '--json'], { 'c.har': capture });
    expect(json.code).toBe(0);
    const row = JSON.parse(json.stdout.trim().split('\n')[1]);
    expect(row).toMatchObject({
      format: null,
      verdict: 'unknown',
      error: null,
      protocol: { protocol: 'socket.io', message: 'attachment', event: 'uploaded' },
      attachmentOf: { frame: 1, num: 0, total: 1 },
    });
  });

  it('is a usage error with options of one frame, or on a file that is no capture', () => {
    expect(runCli(['inspect', '--session', 'c.har', '--hex'], { 'c.har': har() }).code).toBe(2);
    expect(runCli(['inspect', '--session', 'f'], { f: '{"a":1}' }).code).toBe(2);
  });
});

describe('wirescope inspect --session: frames wirescope sent or delivered', () => {
  it('are marked ⇡ and ⇣ as in the inspector (and say so in JSON), the page’s own ↑ and ↓', () => {
    const message = (type: 'send' | 'receive', data: string, time: number, ours: boolean) => ({
      type,
      time,
      opcode: 1,
      data,
      ...(ours ? { _wirescopeOrigin: 'wirescope' } : {}),
    });
    const file = harText([
      entry('wss://a.test/', null, [
        message('send', '{"a":1}', 1, false),
        message('send', '{"a":2}', 2, true),
        message('receive', '{"a":3}', 3, true),
        message('receive', '{"a":4}', 4, false),
      ]),
    ]);
    const text = runCli(['inspect', '--session', 'c.har'], { 'c.har': file });
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n').map((l) => l.split(' ')[2])).toEqual(['↑', '⇡', '⇣', '↓', undefined]);
    const json = runCli(['inspect', '--session', 'c.har', '--json'], { 'c.har': file });
    const origins = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).origin ?? null);
    expect(origins).toEqual([null, 'wirescope', 'wirescope', null]);
  });
});
