import { inflateSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ZlibStreamWriter } from './streams/nested.js';

/**
 * The demo's zlib stream must be what a Discord-style server sends: every message ends in the
 * sync flush `00 00 ff ff`, and the messages so far inflate, in one stream, to the JSON sent.
 * (fflate hands its output chunks as views of a buffer it writes again later; kept uncopied,
 * the first message's tail came out as `00 00 00 00` and the inspector could not read the stream.)
 */
describe('ZlibStreamWriter', () => {
  it('every message ends in 00 00 ff ff and the stream inflates to the values sent', () => {
    for (const content of ['hello world 0', 'x'.repeat(3), 'ünïcödé '.repeat(40)]) {
      const writer = new ZlibStreamWriter();
      const sent: string[] = [];
      const parts: Uint8Array[] = [];
      for (let s = 0; s < 6; s++) {
        const value = {
          op: 0,
          s,
          t: 'MESSAGE_CREATE',
          d: { channel: 'general', author: 'ada', content: `${content} ${s}` },
        };
        const message = writer.message(value);
        expect([...message.subarray(-4)], `message ${s} of "${content.slice(0, 10)}"`).toEqual([0, 0, 0xff, 0xff]);
        sent.push(JSON.stringify(value));
        parts.push(message);
        const inflated = inflateSync(Buffer.concat(parts), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
        expect(inflated).toBe(sent.join(''));
      }
    }
  });
});
