/**
 * Found as a user (the demo's `users.page` MessagePack frames, 2026-11-28): a MessagePack
 * extension of a negative type (the timestamp, type -1) was handed to json-pack's encoder as
 * `JsonPackExtension(-1, …)`, whose header is `(0xd6 << 8) | type`: -1 wrote `ff ff` instead
 * of `d6 ff`, so the MessagePack row decoded garbage ("Invalid array length", or every kind
 * lost) on MessagePack's own frames. The type goes in as its byte, and the round trip reads
 * it back as the signed type.
 */
import { describe, expect, it } from 'vitest';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { frameValue, isMeasured, runComparison } from './compare.js';
import { codecByName, encodedBytes } from './codecs.js';
import { scanValue } from './features.js';

const seconds = Uint8Array.of(0x6b, 0x0a, 0x0a, 0xe7);
const frame = new MsgPackEncoder().encode({
  users: [{ id: 1, lastSeen: new JsonPackExtension(0xff, seconds), avatar: Uint8Array.of(1, 2, 3) }],
  other: new JsonPackExtension(5, Uint8Array.of(9)),
});

describe('MessagePack row on a frame with a negative extension type', () => {
  it('re-encodes the frame byte for byte and round-trips losslessly', async () => {
    const value = frameValue(frame).value;
    const msgpack = codecByName('msgpack')!;
    const bytes = encodedBytes(msgpack.write(msgpack.prepare(value, scanValue(value), new Map())));
    expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(frame).toString('hex'));
    const [row] = await runComparison(value, { codecs: ['msgpack'], runs: 1, warmup: 0 });
    expect(isMeasured(row) && { lossless: row.lossless, lost: row.lost, decodeError: row.decodeError }).toEqual({
      lossless: true,
      lost: [],
      decodeError: null,
    });
  });
});
