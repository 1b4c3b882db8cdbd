import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { STOMP_COMMANDS, stompFrames, stompWalker } from './stomp-walker.js';

const STARTS = STOMP_COMMANDS.map((c) => Array.from(c, (ch) => ch.charCodeAt(0)));

/** Does a STOMP command followed by an EOL start at pos? */
function commandAt(bytes: Uint8Array, pos: number): boolean {
  return STARTS.some(
    (c) =>
      c.every((b, i) => bytes[pos + i] === b) &&
      (bytes[pos + c.length] === 0x0a || (bytes[pos + c.length] === 0x0d && bytes[pos + c.length + 1] === 0x0a)),
  );
}

/**
 * STOMP: a command line (`SEND`, `MESSAGE`, …) then headers, a blank line, a body and NUL.
 * The command and the NUL make it unmistakable; a frame of EOLs alone is a heart-beat only
 * on a connection already known as STOMP (elsewhere it is just text).
 */
export const stompDetector: Detector = {
  format: 'stomp',
  detect(bytes, context) {
    let pos = 0;
    while (pos < bytes.length && (bytes[pos] === 0x0a || bytes[pos] === 0x0d)) pos++;
    const known = context.preferFormat === 'stomp';
    if (pos === bytes.length) {
      if (!known || bytes.length === 0) return null;
      return {
        format: 'stomp',
        confidence: 0.99,
        reason: 'STOMP heart-beat on a STOMP connection',
        index: new SpanIndex(bytes, stompWalker, { depth: 1 }),
      };
    }
    if (!commandAt(bytes, pos)) return null;
    const index = new SpanIndex(bytes, stompWalker, { depth: 1 });
    if (index.error) return { format: 'stomp', error: index.error, index };
    const frames = stompFrames(index);
    return { format: 'stomp', confidence: 0.995, reason: `STOMP ${frames.map((f) => f.command).join(', ')}`, index };
  },
};
