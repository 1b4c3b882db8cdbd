import { describe, expect, it } from 'vitest';
import { decodeFrame, recognizeProtocol, stompFrames } from '../../codecs/index.js';
import { createStompTraffic } from './stomp.js';

describe('/demo/stomp stream', () => {
  it('every frame decodes as STOMP (heart-beats on the STOMP connection); JSON bodies as trees', () => {
    const traffic = createStompTraffic({ seed: 2, now: () => 1_700_000_000_000 });
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const m = traffic.next();
      const d = decodeFrame(new TextEncoder().encode(m.data as string), {
        isText: true,
        preferFormat: i > 0 ? 'stomp' : null,
      });
      expect(d.format, m.label).toBe('stomp');
      expect(d.error).toBeNull();
      const [f] = stompFrames(d.index!);
      seen.add(f.command);
      if (f.command === 'MESSAGE' && f.headers.get('content-type') === 'application/json') {
        expect(f.body).toBe('json');
        expect(recognizeProtocol(d.index, d.format)).toMatchObject({
          protocol: 'stomp',
          message: 'MESSAGE',
          event: f.headers.get('destination'),
        });
      }
    }
    expect([...seen].sort()).toEqual(['CONNECTED', 'MESSAGE', 'RECEIPT', 'heart-beat']);
  });
});
