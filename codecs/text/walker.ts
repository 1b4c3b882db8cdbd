import { Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import { findInvalidUtf8 } from '../core/utf8.js';

/**
 * Plain text: a WebSocket text frame that is neither JSON nor a JSON sequence (a chat line,
 * a STOMP frame, socket.io's `42["ev",…]`). One text node spans the frame; the only thing
 * to validate is UTF-8, which browsers already enforce for text frames, so an invalid byte
 * here means the bytes came from elsewhere (a file, a HAR) and is reported with its offset.
 */
export const textWalker: FormatWalker = {
  format: 'text',
  walk(index: SpanIndex, node: number): void {
    if (node >= 0) return; // a text node has no children
    const bytes = index.bytes;
    const id = index.store.add(Kind.text, 0, 0, bytes.length, -1, -1);
    index.store.setEnd(id, bytes.length);
    const bad = findInvalidUtf8(bytes, 0, bytes.length);
    if (bad >= 0) index.fail('invalid-utf8', bad, 'invalid UTF-8 in a text frame');
  },
  leafValue(index: SpanIndex, node: number): unknown {
    const { start, end } = index.store;
    return decoder.decode(index.bytes.subarray(start[node], end[node]));
  },
};

const decoder = new TextDecoder('utf-8', { fatal: false });
