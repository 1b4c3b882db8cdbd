import { SpanIndex } from '../core/span-index.js';
import type { Detector } from '../detector.js';
import { mediaInfo, mediaSummary, mediaTypeOf, mediaWalker } from './media-walker.js';

/**
 * A media file by its magic (PNG, JPEG, GIF, WebP, PDF, zip, wasm): binary frames only.
 * Magic numbers this long are rare by chance, so a whole header ranks above a CBOR or
 * MessagePack reading that merely consumes the bytes; a header cut short is a rejection
 * with the byte where the frame ended.
 */
export const mediaDetector: Detector = {
  format: 'media',
  textFrames: false,
  detect(bytes) {
    const type = mediaTypeOf(bytes);
    // gzip is inflated before detection (codecs/nested): a stream that breaks is reported
    // there, at its byte, with what inflated; "decode as media" still names it.
    if (!type || type === 'application/gzip') return null;
    const index = new SpanIndex(bytes, mediaWalker, { depth: 1 });
    if (index.error) return { format: 'media', error: index.error, index };
    const media = mediaInfo(index);
    const strong = media?.type !== 'image/jpeg';
    return { format: 'media', confidence: strong ? 0.98 : 0.9, reason: mediaSummary(index), index };
  },
};
