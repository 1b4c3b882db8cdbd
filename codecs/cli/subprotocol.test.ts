import { describe, expect, it } from 'vitest';
import { runCli } from '../test/helpers/cli.js';

/** `wirescope inspect --subprotocol NAME`: the connection's negotiated subprotocol as detection evidence. */
describe('CLI inspect --subprotocol', () => {
  it("ranks the subprotocol's format first and says so", () => {
    // c0 00: MQTT PINGREQ, and CBOR tag 0 of 0.
    const ping = new Uint8Array([0xc0, 0x00]);
    expect(runCli(['inspect', 'f'], { f: ping }).stdout.split('\n')[0]).toMatch(/^cbor/);
    const r = runCli(['inspect', 'f', '--subprotocol', 'mqtt'], { f: ping });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^mqtt, 2 bytes — detected: by subprotocol mqtt: MQTT 3\.1\.1 PINGREQ/);
    expect(r.stdout).toContain('protocol: mqtt PINGREQ');
    const json = JSON.parse(runCli(['inspect', 'f', '--subprotocol=mqtt', '--json'], { f: ping }).stdout);
    expect(json).toMatchObject({ format: 'mqtt', subprotocol: 'mqtt', chosenBy: 'subprotocol mqtt' });
    expect(json.detection.candidates[0]).toMatchObject({ format: 'mqtt', chosenBy: 'subprotocol mqtt' });
  });

  it('tells the protocol recognizer which protocol it is', () => {
    const init = '{"type":"connection_init","payload":{}}';
    expect(runCli(['inspect', 'f', '--text'], { f: init }).stdout).toContain(
      'protocol: subscriptions-transport-ws connection_init',
    );
    expect(runCli(['inspect', 'f', '--text', '--subprotocol', 'graphql-transport-ws'], { f: init }).stdout).toContain(
      'protocol: graphql-ws connection_init',
    );
    const publish = '[16,239714735,{},"com.myapp.mytopic1",["Hello, world!"]]';
    expect(runCli(['inspect', 'f', '--text'], { f: publish }).stdout).not.toContain('protocol:');
    expect(runCli(['inspect', 'f', '--text', '--subprotocol', 'wamp.2.json'], { f: publish }).stdout).toContain(
      'protocol: wamp PUBLISH · com.myapp.mytopic1',
    );
  });

  it("never forces: a frame the subprotocol's format cannot read keeps its own reading (exit 0)", () => {
    const r = runCli(['inspect', 'f', '--subprotocol', 'mqtt'], { f: new Uint8Array([0xa1, 0x61, 0x61, 0x01]) });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^cbor, 4 bytes — detected: /);
    expect(r.stdout.split('\n')[0]).not.toContain('subprotocol');
  });

  it('an unknown subprotocol is said, not an error', () => {
    const r = runCli(['inspect', 'f', '--subprotocol', 'chat.example'], {
      f: new Uint8Array([0xa1, 0x61, 0x61, 0x01]),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('subprotocol chat.example is not one wirescope knows');
    expect(runCli(['inspect', 'f', '--subprotocol'], { f: new Uint8Array([1]) })).toMatchObject({ code: 2 });
    expect(runCli(['--help']).stdout).toContain('--subprotocol NAME');
  });
});
