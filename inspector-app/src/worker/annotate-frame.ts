import { annotatedHex, type SpanIndex } from '../../../codecs/index.js';
import type { AnnotatedHexResult } from './api.js';

/** Frames up to this size are annotated whole; larger ones to ANNOTATE_DEPTH levels. */
export const ANNOTATE_FULL_LIMIT = 256 * 1024;
const ANNOTATE_DEPTH = 3;
/** Lines sent to the page at most (the view is virtualized, but the text is held whole). */
export const ANNOTATE_MAX_LINES = 200_000;

/**
 * cbor.me-style annotated hex of a frame: each item's head and payload on its own line with
 * its offset and size. Runs in the worker (it walks the whole frame).
 */
export function annotateFrame(index: SpanIndex): AnnotatedHexResult {
  if (index.root < 0) return { lines: [], complete: false, truncated: false };
  const complete = index.bytes.length <= ANNOTATE_FULL_LIMIT;
  if (complete) index.expandAll(index.root);
  else index.expand(index.root, ANNOTATE_DEPTH);
  const lines = annotatedHex(index, index.root).split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const truncated = lines.length > ANNOTATE_MAX_LINES;
  return { lines: truncated ? lines.slice(0, ANNOTATE_MAX_LINES) : lines, complete, truncated };
}
