import { Kind } from '../core/kinds.js';
import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { field, initParts, openContainer, closeContainer, payload, protocolWalker, partsData } from './frame-parts.js';
import { hex2 } from '../core/hex.js';

/**
 * Engine.IO protocol v3 (socket.io 2.x) binary frames: every binary WebSocket message starts
 * with the Engine.IO packet type `04` (message), then the data — a Socket.IO attachment, or
 * what the application sent through the engine. (v4 dropped the byte: its binary frames are
 * the data alone.) The root is a map `engine.io` (the type byte) and `data` (read by the
 * usual payload rules: JSON / CBOR / MessagePack when it reads whole, else text, else bytes).
 */
const ENGINE_IO_MESSAGE = 0x04;

function walkFrame(index: SpanIndex): void {
  const { bytes } = index;
  initParts(index);
  const root = openContainer(index, -1, null, Kind.map, 0);
  if (bytes.length === 0 || bytes[0] !== ENGINE_IO_MESSAGE) {
    closeContainer(index, root, 0);
    index.fail(
      'invalid-byte',
      0,
      `not an Engine.IO v3 binary message: the first byte must be 04 (message), found ${bytes.length ? hex2(bytes[0]) : 'nothing'}`,
    );
    return;
  }
  field(index, root, 'engine.io', 0, 1, 'message', Kind.text);
  payload(index, root, 'data', 1, bytes.length);
  closeContainer(index, root, bytes.length);
}

export const engineIoBinaryWalker = protocolWalker('socketio', walkFrame, () => 'engine.io v3 binary message');

/** True when the index is an Engine.IO v3 binary message read by this walker. */
export function isEngineIoBinary(index: SpanIndex): boolean {
  return index.walker === engineIoBinaryWalker && !index.error && partsData(index) !== null;
}

/**
 * Offered only on a connection whose other frames are Socket.IO / Engine.IO: elsewhere a
 * leading `04` is just a byte (and no CBOR or MessagePack value reads `04` plus more whole,
 * so nothing is taken from them).
 */
export const engineIoBinaryDetector: Detector = {
  format: 'socketio',
  textFrames: false,
  detect(bytes, context) {
    if (context.isText || context.preferFormat !== 'socketio' || bytes.length < 2 || bytes[0] !== ENGINE_IO_MESSAGE)
      return null;
    const index = new SpanIndex(bytes, engineIoBinaryWalker, { depth: 1 });
    if (index.error) return { format: 'socketio', error: index.error, index };
    return {
      format: 'socketio',
      confidence: 0.9,
      reason: 'Engine.IO v3 binary message (type byte 04, then the data) on a Socket.IO connection',
      index,
    };
  },
};
