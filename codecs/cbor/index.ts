import { SpanIndex, type IndexOptions } from '../core/span-index.js';
import { cborWalker } from './walker.js';

export { cborWalker } from './walker.js';
export { cborLeafValue, cborTagValue, cborArgument, decodeFloat16 } from './value.js';

/** Validates a CBOR frame and indexes it down to `options.depth` (default: everything). Never throws. */
export function indexCbor(bytes: Uint8Array, options?: IndexOptions): SpanIndex {
  return new SpanIndex(bytes, cborWalker, options);
}
