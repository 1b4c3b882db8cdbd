import { describe, expect, it } from 'vitest';
import { runCli } from '../test/helpers/cli.js';

/** `wirescope inspect` says which framing protocol a frame belongs to. */
describe("CLI inspect: the frame's protocol", () => {
  it('text output names the protocol, message type, event / topic and id', () => {
    const r = runCli(['inspect', 'f', '--text'], { f: '421["chat message",{"text":"hi"}]' });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[1]).toBe('protocol: socket.io EVENT · chat message · id 1');
    const mqtt = runCli(['inspect', 'f'], {
      f: new Uint8Array([
        0x30,
        0x0e,
        0x00,
        0x05,
        ...new TextEncoder().encode('a/b/c'),
        ...new TextEncoder().encode('{"t":1}'),
      ]),
    });
    expect(mqtt.stdout).toContain('protocol: mqtt PUBLISH · a/b/c');
    const stomp = runCli(['inspect', 'f', '--text'], { f: 'SEND\ndestination:/queue/a\n\nhello\0' });
    expect(stomp.stdout).toContain('protocol: stomp SEND · /queue/a');
    expect(runCli(['inspect', 'f'], { f: new Uint8Array([0xa1, 0x61, 0x61, 0x01]) }).stdout).not.toContain('protocol:');
  });

  it('--json carries it as "protocol"', () => {
    const r = runCli(['inspect', 'f', '--text', '--json'], { f: '[null,"7","room:lobby","new_msg",{"body":"yo"}]' });
    expect(JSON.parse(r.stdout).protocol).toEqual({
      protocol: 'phoenix',
      message: 'new_msg',
      event: 'room:lobby',
      id: '7',
      quiet: false,
    });
    expect(JSON.parse(runCli(['inspect', 'f', '--json'], { f: new Uint8Array([0x01]) }).stdout).protocol).toBeNull();
  });
});
