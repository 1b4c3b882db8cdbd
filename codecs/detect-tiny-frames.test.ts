/**
 * Detection never claims a foreign frame: tiny binary frames read as something in most
 * formats, so they are only confident in their connection's format; a json-joy reading that
 * fails at its first bytes is a rejected candidate, never the verdict; a frame that is the
 * first part of its connection's MQTT packet is that part.
 */
import { describe, expect, it } from 'vitest';
import { decodeFrame, isPartOfMessage } from './index.js';
import { runCli } from './test/helpers/cli.js';
import { hex } from './test/helpers/hex.js';

describe('frames of 1-2 bytes', () => {
  it('20, 90 and 0a read with a confidence below 0.5 when the connection says nothing', () => {
    for (const frame of ['20', '90', '0a', 'c000']) {
      const best = decodeFrame(hex(frame)).detection!.candidates[0];
      expect(best.confidence, frame).toBeLessThan(0.5);
    }
  });

  it("keep a confident reading in the connection's format", () => {
    expect(decodeFrame(hex('2a'), { preferFormat: 'msgpack' }).detection!.candidates[0]).toMatchObject({
      format: 'msgpack',
    });
    expect(decodeFrame(hex('2a'), { preferFormat: 'msgpack' }).detection!.candidates[0].confidence).toBeGreaterThan(
      0.5,
    );
    expect(decodeFrame(hex('c000'), { subprotocol: 'mqtt' })).toMatchObject({ format: 'mqtt', verdict: 'decoded' });
  });
});

describe('an MQTT packet written a part per frame', () => {
  it('20 on an MQTT connection is the first part of a CONNACK, not CBOR -1', () => {
    const frame = decodeFrame(hex('20'), { subprotocol: 'mqtt' });
    expect(frame).toMatchObject({ format: 'mqtt', verdict: 'malformed', error: { code: 'truncated', offset: 1 } });
    expect(isPartOfMessage(frame)).toBe(true);
    expect(decodeFrame(hex('2002'), { preferFormat: 'mqtt' })).toMatchObject({ format: 'mqtt' });
    // Without the connection's word, 20 is no MQTT part.
    expect(isPartOfMessage(decodeFrame(hex('20')))).toBe(false);
  });

  it('the CLI says "MQTT, part of a packet" and exits 0', () => {
    const r = runCli(['inspect', 'f', '--subprotocol', 'mqtt'], { f: hex('20') });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^mqtt, 1 bytes — MQTT, part of a packet: remaining length is cut short/);
    expect(r.stderr).toBe('');
    const json = JSON.parse(runCli(['inspect', 'f', '--subprotocol', 'mqtt', '--json'], { f: hex('20') }).stdout);
    expect(json).toMatchObject({ format: 'mqtt', partOfPacket: expect.stringContaining('cut short') });
  });
});

describe('json-joy readings that fail at their first bytes', () => {
  it('are rejected candidates, not the verdict', () => {
    // 20 02 00: a json-joy model reading runs out at byte 3; nothing reads it whole.
    const frame = decodeFrame(hex('200200'));
    expect(frame.format).not.toBe('crdt-model');
    expect(frame.detection!.rejected.map((r) => r.format)).toContain('crdt-model');
    expect(frame.verdict).toBe('unknown');
  });
});
