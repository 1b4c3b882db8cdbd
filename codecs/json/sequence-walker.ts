import { Flag, Kind } from '../core/kinds.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { jsonWalker } from './walker.js';

/**
 * Newline-delimited JSON (and RFC 7464 JSON text sequences): several JSON values in one frame,
 * one per line (`{…}\n{…}`, as Centrifugo batches commands). The root is a virtual array
 * spanning the frame; each value is a child with its own span, read and validated by the
 * JSON walker, which also expands it later. The walker reports format `json` because every
 * value is JSON text (strings keep their escapes, containers close with a bracket); the
 * detection names the frame `ndjson`.
 */
export const ndjsonWalker: FormatWalker = {
  format: 'json',
  walk(index: SpanIndex, node: number, depth: number): void {
    if (node < 0) walkSequence(index, depth);
    else if (node > 0) jsonWalker.walk(index, node, depth);
  },
  leafValue: (index, node) => jsonWalker.leafValue(index, node),
  describe(index, node) {
    if (node === 0) return `ndjson(${index.store.arg[0]})`;
    return defaultDescribe(index, node);
  },
};

/** The generic header text for JSON nodes (describe is per walker, so the root's override must fall back by hand). */
function defaultDescribe(index: SpanIndex, id: number): string {
  const { store } = index;
  switch (store.kind[id]) {
    case Kind.text:
      return `text(${store.arg[id]})`;
    case Kind.array:
      return `array(${store.arg[id]})`;
    case Kind.map:
      return `map(${store.arg[id]})`;
    default:
      return index.kind(id);
  }
}

const LF = 0x0a;
const RS = 0x1e;

function isBlank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== LF && c !== RS) return false;
  }
  return true;
}

function lineEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === LF || bytes[i] === RS) return i;
  return bytes.length;
}

/** `message at byte N` from a line's own index, restated at the frame's offset. */
function shifted(message: string): string {
  return message.replace(/ at byte \d+$/, '');
}

function walkSequence(index: SpanIndex, depth: number): void {
  const { bytes, store } = index;
  const len = bytes.length;
  const root = store.add(Kind.array, 0, 0, 0, -1, -1);
  store.setEnd(root, len);
  store.addFlags(root, Flag.expanded);
  let prev = -1;
  let count = 0;
  let pos = 0;
  while (pos < len) {
    const end = lineEnd(bytes, pos);
    if (!isBlank(bytes, pos, end)) {
      const line = new SpanIndex(bytes.subarray(pos, end), jsonWalker, { depth: 0 });
      if (line.root >= 0) {
        const ls = line.store;
        const id = store.add(ls.kind[0], pos + ls.start[0], ls.head[0], ls.arg[0], root, prev);
        store.setEnd(id, pos + ls.end[0]);
        store.addFlags(id, ls.flags[0] & ~Flag.expanded);
        for (const w of line.warnings) index.warn({ ...w, offset: pos + w.offset, node: id });
        prev = id;
        count++;
        if (!line.error && depth > 1 && (ls.kind[0] === Kind.array || ls.kind[0] === Kind.map))
          jsonWalker.walk(index, id, depth - 1);
      }
      if (line.error) {
        index.fail(
          line.error.code,
          pos + line.error.offset,
          `value ${count + (line.root >= 0 ? 0 : 1)} of the sequence: ${shifted(line.error.message)}`,
        );
        store.addFlags(root, Flag.incomplete);
        break;
      }
    }
    pos = end + 1;
  }
  store.setArg(root, count);
}
