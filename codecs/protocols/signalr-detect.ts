import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { opensJsonRecord, signalrMessages, signalrWalker } from './signalr-walker.js';

/**
 * SignalR's hub protocol: JSON records ending in 0x1e (text frames, and the handshake in
 * binary frames too), or varint-length-prefixed MessagePack arrays whose first item is a
 * message type and whose item count fits it. A frame that reads whole that way is SignalR;
 * on a connection whose frames were SignalR (its handshake, its earlier messages) it is
 * certain, and a frame it cannot read there is a malformed SignalR frame.
 */
export const signalrDetector: Detector = {
  format: 'signalr',
  detect(bytes, context) {
    const known = context.preferFormat === 'signalr';
    const json = opensJsonRecord(bytes);
    // JSON records end with the record separator (on a SignalR connection a frame that does not
    // is a broken one); binary frames may hold MessagePack records.
    if (json ? bytes[bytes.length - 1] !== 0x1e && !known : context.isText || bytes.length < 2) return null;
    const index = new SpanIndex(bytes, signalrWalker, { depth: 1 });
    if (index.error) return known || json ? { format: 'signalr', error: index.error, index } : null;
    const messages = signalrMessages(index);
    const names = [...new Set(messages.map((m) => m.name))].join(', ');
    const confidence = known ? 0.995 : json ? 0.985 : bytes.length < 4 ? 0.6 : 0.9;
    return {
      format: 'signalr',
      confidence,
      reason: `SignalR ${json ? 'JSON' : 'MessagePack'} hub protocol: ${names}`,
      index,
    };
  },
};
