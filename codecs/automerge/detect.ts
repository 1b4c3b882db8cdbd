import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { automergeFrame, automergeWalker, opensLikeAutomerge } from './walker.js';

/**
 * A frame that is an Automerge sync message or chunk on its own (apps that send automerge's
 * bytes without automerge-repo's CBOR around them). A chunk's magic bytes are strong
 * evidence; a sync message's version byte 0x42 / 0x43 is one byte, so it counts only when
 * every list after it consumes the frame exactly.
 */
export const automergeDetector: Detector = {
  format: 'automerge',
  textFrames: false,
  detect(bytes, context) {
    if (!opensLikeAutomerge(bytes)) return null;
    const index = new SpanIndex(bytes, automergeWalker);
    const f = automergeFrame(index);
    const magic = bytes[0] === 0x85;
    if (index.error)
      return magic || context.preferFormat === 'automerge' ? { format: 'automerge', error: index.error, index } : null;
    if (!f) return null;
    const confidence = magic ? 0.97 : context.preferFormat === 'automerge' ? 0.97 : 0.9;
    const what =
      f.kind === 'sync message'
        ? `Automerge sync message v${f.version}: ${f.heads?.length ?? 0} heads, ${f.chunks.length} changes`
        : `Automerge ${f.chunks.map((c) => c.type).join(', ')} chunk${f.chunks.length === 1 ? '' : 's'}`;
    return { format: 'automerge', confidence, reason: what, index };
  },
};
