import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { sockjsFrame, sockjsWalker } from './sockjs-walker.js';

/**
 * SockJS server frames: `a[…]`, `m"…"` and `c[…]` are unmistakable when the JSON after the
 * letter reads whole; `o` and `h` are one letter, so they are SockJS only on a connection
 * known as SockJS (else they stay text, ranked above them).
 */
export const sockjsDetector: Detector = {
  format: 'sockjs',
  detect(bytes, context) {
    if (!context.isText || bytes.length === 0) return null;
    const letter = bytes[0];
    const known = context.preferFormat === 'sockjs';
    if (bytes.length === 1) {
      if (letter !== 0x6f && letter !== 0x68) return null;
      const index = new SpanIndex(bytes, sockjsWalker, { depth: 1 });
      return {
        format: 'sockjs',
        confidence: known ? 0.99 : 0.45,
        reason: `SockJS ${sockjsFrame(index)?.name} frame`,
        index,
      };
    }
    const opens = bytes[1] === 0x5b || (letter === 0x6d && bytes[1] === 0x22);
    if (!opens || (letter !== 0x61 && letter !== 0x63 && letter !== 0x6d)) return null;
    const index = new SpanIndex(bytes, sockjsWalker, { depth: 1 });
    if (index.error) return { format: 'sockjs', error: index.error, index };
    const f = sockjsFrame(index)!;
    const what = f.name === 'close' ? `close ${f.code ?? ''} ${f.reason ?? ''}`.trim() : `${f.name} of ${f.messages}`;
    return { format: 'sockjs', confidence: known ? 0.995 : 0.95, reason: `SockJS ${what}`, index };
  },
};
