import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { phoenixBinary, phoenixWalker } from './phoenix-walker.js';

/**
 * Phoenix channels' binary frames: kind 0-2, then string sizes that must add up inside the
 * frame with UTF-8 strings and a topic that reads like one (`room:lobby`). A first byte of
 * 0-2 followed by all that is rare for CBOR / MessagePack, which also reject the trailing
 * bytes after their leading small integer.
 */
export const phoenixDetector: Detector = {
  format: 'phoenix',
  textFrames: false,
  detect(bytes, context) {
    if (bytes.length < 3 || bytes[0] > 2) return null;
    const index = new SpanIndex(bytes, phoenixWalker, { depth: 1 });
    const m = phoenixBinary(index);
    if (index.error || !m)
      return context.preferFormat === 'phoenix'
        ? {
            format: 'phoenix',
            error: index.error ?? { code: 'invalid-byte', offset: 0, message: 'not a Phoenix binary frame at byte 0' },
            index,
          }
        : null;
    const topicLike = /^[\w.-]+(:[^\s]*)?$/.test(m.topic) && m.event.length > 0 && /^[\x21-\x7e]+$/.test(m.event);
    if (!topicLike) return null;
    const confidence = context.preferFormat === 'phoenix' ? 0.99 : 0.8;
    return { format: 'phoenix', confidence, reason: `Phoenix binary ${m.kind} on "${m.topic}" (${m.event})`, index };
  },
};
