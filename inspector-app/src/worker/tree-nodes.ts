import { nodeReadings } from './protobuf-schemas.js';
import {
  Kind,
  childSegment,
  positionLabel,
  throughSelfDescribe,
  crdtIdOf,
  crdtSpanOf,
  describeHead,
  Flag,
  formatId,
  formatPath,
  formatPointer,
  pathSegments,
  previewValue,
  type PathSegment,
  type SpanIndex,
} from '../../../codecs/index.js';
import type { TreeNode } from './api.js';

/**
 * A node's depth, cached per index: the tree asks level by level, so a node's parent is
 * usually known and its depth costs one step. Counting to the root every time made
 * revealing the deepest of 100,000 nested arrays quadratic.
 */
const depths = new WeakMap<SpanIndex, Int32Array>();
function depthOf(index: SpanIndex, id: number): number {
  const { parent } = index.store;
  let known = depths.get(index);
  if (!known || known.length < index.store.size) {
    const grown = new Int32Array(Math.max(index.store.size, 16)).fill(-1);
    if (known) grown.set(known);
    depths.set(index, (known = grown));
  }
  const chain: number[] = [];
  let n = id;
  while (n >= 0 && known[n] < 0) {
    chain.push(n);
    n = parent[n];
  }
  let depth = n >= 0 ? known[n] : -1;
  for (let i = chain.length - 1; i >= 0; i--) known[chain[i]] = ++depth;
  return known[id];
}

/**
 * Path segments shown for a node: all of them up to PATH_LEVELS deep; past that the last
 * PATH_LEVELS only, after `elided` levels (a path through 100,000 nested arrays would be
 * a 300 KB string on every row, and building it per row quadratic).
 */
export const PATH_LEVELS = 64;
function shownSegments(
  index: SpanIndex,
  id: number,
  depth: number,
  position: number,
): { segments: PathSegment[]; elided: number } {
  if (depth <= PATH_LEVELS) return { segments: pathSegments(index, id), elided: 0 };
  const segments: PathSegment[] = [];
  // The node's own position is known to the caller listing its parent's children (counting
  // siblings instead would make a long array's listing quadratic); its ancestors' are counted.
  const { parent, kind } = index.store;
  for (let n = id, i = 0; i < PATH_LEVELS; n = parent[n], i++)
    segments.push(childSegment(index, n, i === 0 && position >= 0 && kind[parent[n]] === Kind.array ? position : -1));
  return { segments: segments.reverse(), elided: depth - PATH_LEVELS };
}

/** `$…(99,936 levels)…[0][0]`: a deep path with its middle elided; a pointer likewise. */
function pathText(segments: readonly PathSegment[], elided: number): { path: string; pointer: string } {
  if (!elided) return { path: formatPath(segments), pointer: formatPointer(segments) };
  const gap = `…(${elided.toLocaleString('en-US')} levels)…`;
  return { path: `$${gap}${formatPath(segments).slice(1)}`, pointer: `/${gap}${formatPointer(segments)}` };
}

function childCount(index: SpanIndex, id: number): number {
  if (!index.isContainer(id)) return -1;
  const kind = index.kind(id);
  const arg = index.store.arg[id];
  // Definite containers carry their count in the header; others count what was recorded.
  if ((kind === 'array' || kind === 'map') && !(index.store.flags[id] & Flag.indefinite) && arg >= 0) return arg;
  if (!index.isExpanded(id)) return -1;
  return index.children(id).length;
}

/** Position label of a node inside its parent: the key's preview or `[i]`. */
function labelOf(index: SpanIndex, id: number, keyId: number, position: number): string {
  if (keyId >= 0) {
    const kind = index.kind(keyId);
    if (
      (kind === 'text' || (kind === 'crdt_content' && typeof index.value(keyId) === 'string')) &&
      !index.isIncomplete(keyId)
    )
      return String(index.value(keyId));
    return previewValue(index, keyId, 40);
  }
  return positionLabel(index, id, position);
}

/**
 * One tree row. `parentSegments` (the parent's path) makes a listing of n children O(n):
 * without it the path is rebuilt from the root, counting siblings on the way.
 */
export function treeNode(
  index: SpanIndex,
  id: number,
  position: number,
  depth = depthOf(index, id),
  parentSegments?: readonly PathSegment[],
): TreeNode {
  const { store } = index;
  const keyId = index.keyOf(id);
  const parent = store.parent[id];
  // Array items' positions are known to the caller; other parents count siblings with keys.
  const { segments, elided } =
    parentSegments && parent >= 0 && depth <= PATH_LEVELS
      ? {
          segments: [...parentSegments, childSegment(index, id, index.kind(parent) === 'array' ? position : -1)],
          elided: 0,
        }
      : shownSegments(index, id, depth, position);
  const { path, pointer } = pathText(segments, elided);
  const crdtId = crdtIdOf(index, id);
  return {
    id,
    parent: store.parent[id],
    depth,
    label: labelOf(index, id, keyId, position),
    keyStart: keyId >= 0 ? store.start[keyId] : -1,
    keyEnd: keyId >= 0 ? store.end[keyId] : -1,
    kind: index.kind(id),
    head: describeHead(index, id),
    preview: arrivedPreview(index, id) ?? previewValue(index, id, 80),
    start: store.start[id],
    end: store.end[id],
    headerLength: index.headerLength(id),
    isContainer: index.isContainer(id),
    childCount: childCount(index, id),
    incomplete: index.isIncomplete(id),
    duplicateKey:
      (store.flags[id] & Flag.duplicateKey) !== 0 || (keyId >= 0 && (store.flags[keyId] & Flag.duplicateKey) !== 0),
    path,
    pointer,
    crdtId: crdtId ? formatId(crdtId) : null,
    crdtSpan: crdtSpanOf(index, id),
    readings: nodeReadings(index, id),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** A string cut short by the end of the frame: the bytes that did arrive, and how many were declared. */
function arrivedPreview(index: SpanIndex, id: number): string | null {
  if (!index.isIncomplete(id)) return null;
  const kind = index.kind(id);
  if (kind !== 'text' && kind !== 'bytes') return null;
  const { start, end, head, arg } = index.store;
  const from = start[id] + head[id];
  const to = Math.min(end[id], index.bytes.length);
  const declared = arg[id];
  if (!(declared >= 0) || to < from) return null;
  const got = index.bytes.subarray(from, Math.min(to, from + 60));
  const shown =
    kind === 'text'
      ? JSON.stringify(utf8.decode(got)).slice(0, -1) + '…"'
      : `h'${Array.from(got, (b) => b.toString(16).padStart(2, '0')).join('')}…'`;
  return `${shown} (${to - from} of ${declared} bytes arrived)`;
}

/**
 * A map's last key whose value failed to decode: the walker stopped after the key, so the
 * entry has no value node. It is still an entry the user must see (its key bytes are
 * there), shown as a row for the key that says why the value is missing.
 */
function danglingKeyNode(
  index: SpanIndex,
  mapId: number,
  depth: number,
  parentPath: string,
  parentPointer: string,
): TreeNode | null {
  const { firstChild, nextSibling, flags, start, end } = index.store;
  let last = -1;
  for (let c = firstChild[mapId]; c >= 0; c = nextSibling[c]) last = c;
  if (last < 0 || !(flags[last] & Flag.key)) return null;
  const label =
    index.kind(last) === 'text' && !index.isIncomplete(last)
      ? String(index.value(last))
      : previewValue(index, last, 40);
  const error = index.error;
  // Decoders' messages end "at byte N" already: the offset is said once.
  const why = !error
    ? 'value missing'
    : new RegExp(`\\bbyte ${error.offset}\\b`).test(error.message)
      ? `value failed: ${error.message}`
      : `value failed at byte ${error.offset}: ${error.message}`;
  return {
    id: last,
    parent: mapId,
    depth,
    label,
    keyStart: start[last],
    keyEnd: end[last],
    kind: 'missing',
    head: 'no value',
    preview: `(${why})`,
    start: end[last],
    end: end[last],
    headerLength: 0,
    isContainer: false,
    childCount: -1,
    incomplete: true,
    duplicateKey: false,
    path: parentPath + (/^[A-Za-z_$][\w$]*$/.test(label) ? `.${label}` : `[${JSON.stringify(label)}]`),
    pointer: `${parentPointer}/${label.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    crdtId: null,
    crdtSpan: null,
  };
}

/** Children listed per request: a 100,000-item array opens a page at a time. */
export const CHILD_PAGE = 1000;

/**
 * A window of the children of `id` as tree rows (indexes one more level on demand): from
 * `offset`, or centred on the child `around` (revealing a node deep in a long array).
 * `bySize` orders all the children by their bytes (key included), largest first, before the
 * window is cut: a sorted page is the top of the whole container, not of one page.
 */
export function childNodes(
  index: SpanIndex,
  id: number,
  offset = 0,
  limit = CHILD_PAGE,
  around = -1,
  bySize = false,
): { nodes: TreeNode[]; total: number; offset: number } {
  if (!index.has(id)) return { nodes: [], total: 0, offset: 0 };
  const depth = depthOf(index, id) + 1;
  // Below PATH_LEVELS each row builds its own (cut) path from a few parents instead.
  const parentSegments = depth <= PATH_LEVELS ? pathSegments(index, id) : undefined;
  const all = index.children(id);
  // Positions in arrival order (labels and paths need them), in display order.
  let order: number[] | null = null;
  if (bySize) {
    const { start, end } = index.store;
    const size = all.map((c) => {
      const key = index.keyOf(c);
      return end[c] - start[c] + (key >= 0 ? end[key] - start[key] : 0);
    });
    order = all.map((_, i) => i).sort((a, b) => size[b] - size[a] || a - b);
  }
  if (around >= 0) {
    const at = order ? order.findIndex((i) => all[i] === around) : all.indexOf(around);
    if (at >= 0) offset = Math.max(0, Math.min(at - (limit >> 1), all.length - limit));
  }
  const from = Math.max(0, Math.min(offset, all.length));
  const to = Math.min(all.length, from + limit);
  const nodes: TreeNode[] = [];
  for (let i = from; i < to; i++) {
    const position = order ? order[i] : i;
    nodes.push(treeNode(index, all[position], position, depth, parentSegments));
  }
  // An entry whose value failed comes last (the walker stopped there): shown after the rest.
  if (index.isIncomplete(id) && index.kind(id) === 'map' && to === all.length) {
    // (Past PATH_LEVELS no parent path was built: this rare row builds its own.)
    const segments = parentSegments ?? pathSegments(index, id);
    const dangling = danglingKeyNode(index, id, depth, formatPath(segments), formatPointer(segments));
    if (dangling) return { nodes: [...nodes, dangling], total: all.length + 1, offset: from };
  }
  return { nodes, total: all.length, offset: from };
}

/** The ids from the root down to the deepest node containing `offset` (empty when none). */
export function pathToOffset(index: SpanIndex, offset: number): number[] {
  let id = index.nodeAt(offset);
  if (id < 0) return [];
  // A click on a key's bytes selects the value it names: the tree shows keys inside value rows.
  if (index.store.flags[id] & Flag.key && index.store.nextSibling[id] >= 0) id = index.store.nextSibling[id];
  const path: number[] = [];
  for (let n = id; n >= 0; n = index.store.parent[n]) path.push(n);
  return path.reverse();
}

/** A one-line preview of a frame's top level: `{type: "chat", user: "ann", …}`. */
export function framePreview(index: SpanIndex, max = 120): string {
  // A self-described frame (d9 d9 f7) previews its content: the tag says nothing about it.
  const root = index.root >= 0 ? throughSelfDescribe(index, index.root) : -1;
  if (root < 0) return '';
  // A media file reads as what it is (`image/png 320×200, 1.2 KiB`), not as its header fields.
  if (
    !index.isContainer(root) ||
    index.kind(root) === 'text' ||
    index.kind(root) === 'bytes' ||
    index.format === 'media'
  )
    return previewValue(index, root, max);
  const kind = index.kind(root);
  const isMap = kind === 'map' || kind === 'crdt_obj';
  const isArray = kind === 'array' || kind === 'crdt_arr' || kind === 'crdt_vec';
  if (!isMap && !isArray) return `${describeHead(index, root)} ${previewValue(index, root, max)}`;
  const parts: string[] = [];
  let length = 2;
  for (const c of index.children(root)) {
    const keyId = index.keyOf(c);
    // A tag reads like the scalar it usually wraps (a date, a UUID): leaf width.
    const value =
      index.isContainer(c) && index.kind(c) !== 'tag' ? previewValue(index, c, 24) : previewValue(index, c, 40);
    const part = isMap && keyId >= 0 ? `${labelOf(index, c, keyId, 0)}: ${value}` : value;
    length += part.length + 2;
    if (length > max) {
      parts.push('…');
      break;
    }
    parts.push(part);
  }
  return isMap ? `{${parts.join(', ')}}` : `[${parts.join(', ')}]`;
}
