import { SpanIndex, type IndexOptions } from '../core/span-index.js';
import { msgpackWalker } from './walker.js';

export { msgpackWalker } from './walker.js';
export { msgpackLeafValue, msgpackInteger, decodeTimestamp } from './value.js';

/** Validates and indexes one MessagePack frame (down to `options.depth`, default everything). */
export function indexMsgpack(bytes: Uint8Array, options?: IndexOptions): SpanIndex {
  return new SpanIndex(bytes, msgpackWalker, options);
}
