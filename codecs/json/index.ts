import { SpanIndex, type IndexOptions } from '../core/span-index.js';
import { jsonWalker } from './walker.js';

export { jsonWalker } from './walker.js';
export { jsonLeafValue } from './value.js';

/** A validating span index over the UTF-8 bytes of one JSON text (RFC 8259). */
export function indexJson(bytes: Uint8Array, options?: IndexOptions): SpanIndex {
  return new SpanIndex(bytes, jsonWalker, options);
}
