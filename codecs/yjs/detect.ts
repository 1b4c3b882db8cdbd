import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { yjsMessage, yjsWalker } from './walker.js';
import { lib0Value, readVarUint } from './lib0-read.js';

/**
 * The message's outer framing holds: a sync step 0–2 or an awareness update whose buffer
 * length ends exactly at the frame's end, or an auth message 0 with its reason's length. A
 * reading that fails inside such a frame is a broken Yjs frame.
 */
function framed(bytes: Uint8Array): boolean {
  const bufferAt = bytes[0] === 0 ? 2 : bytes[0] === 1 ? 1 : bytes[0] === 2 && bytes[1] === 0 ? 2 : -1;
  if (bufferAt < 0 || (bytes[0] === 0 && bytes[1] > 2)) return false;
  const end = readVarUint(bytes, bufferAt, bytes.length);
  return end >= 0 && end + lib0Value === bytes.length;
}

/**
 * y-protocols messages (y-websocket): no magic number, but the reading is strict (a message
 * type 0–3, a sync step 0–2, every length-prefixed buffer consumed exactly, structs whose
 * info byte names a content type), and CBOR / MessagePack stop at the second byte of such a
 * frame (a small integer, then more). A reading that fails inside a frame whose outer buffer
 * fits it exactly is a broken Yjs frame; any other failure is not Yjs at all. A lone query
 * awareness (`03`) is too short to tell: below 0.5 unless the connection spoke Yjs.
 */
export const yjsDetector: Detector = {
  format: 'yjs',
  textFrames: false,
  detect(bytes, context) {
    if (bytes.length === 0 || bytes[0] > 3) return null;
    const index = new SpanIndex(bytes, yjsWalker);
    const m = yjsMessage(index);
    const preferred = context.preferFormat === 'yjs';
    if (index.error) return m && (framed(bytes) || preferred) ? { format: 'yjs', error: index.error, index } : null;
    if (!m) return null;
    let confidence: number;
    let reason: string;
    if (m.update) {
      const structs = m.update.clients.reduce((n, c) => n + c.structs.length, 0);
      const deletes = m.update.deleteSet.reduce((n, c) => n + c.ranges.length, 0);
      confidence = bytes.length >= 4 ? 0.93 : 0.6;
      reason = `Yjs ${m.step}: ${structs} struct${structs === 1 ? '' : 's'}, ${deletes} deleted range${deletes === 1 ? '' : 's'}`;
    } else if (m.stateVector) {
      confidence = bytes.length >= 4 ? 0.92 : 0.6;
      reason = `Yjs sync step 1: a state vector of ${m.stateVector.length} client${m.stateVector.length === 1 ? '' : 's'}`;
    } else if (m.awareness) {
      confidence = 0.93;
      reason = `Yjs awareness: ${m.awareness.length} state${m.awareness.length === 1 ? '' : 's'}`;
    } else if (m.message === 'auth') {
      confidence = 0.85;
      reason = 'Yjs auth: permission denied';
    } else {
      confidence = 0.3;
      reason = 'Yjs query awareness (one byte)';
    }
    if (preferred) confidence = Math.min(0.99, confidence + 0.5);
    return { format: 'yjs', confidence, reason, index };
  },
};
