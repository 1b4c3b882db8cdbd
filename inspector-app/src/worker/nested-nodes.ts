/**
 * Values inside values as nested trees: a string that holds a value of its own (tag 24's
 * embedded CBOR, a byte string of MessagePack, base64 of CBOR in a JSON string, …; read by
 * codecs/nested) opens like a container whose child is that value, read from its own index.
 * Its rows carry ids above VIRTUAL_BASE (the frame's own ids never get there) and byte ranges
 * mapped to the frame's offsets (for base64 / hex the characters that encode each byte; for
 * JSON strings through the unescaping), so the hex highlight and the rows' shares work
 * unchanged. Strings inside a nested value nest again, up to codecs' MAX_NESTED_DEPTH.
 */
import { MAX_NESTED_DEPTH, nestedValue, type NestedValue, type SpanIndex } from '../../../codecs/index.js';
import type { ChildWindow, TreeNode } from './api.js';
import { childNodes, pathToOffset, treeNode, CHILD_PAGE } from './tree-nodes.js';

/** Ids of nested rows start here: a frame's own node ids stay far below (memory). */
export const VIRTUAL_BASE = 2 ** 30;

/** Where one nested value hangs in the frame's tree. */
interface Embedding {
  readonly nested: NestedValue;
  /** The string's row id (a frame node id, or a virtual id for a string inside a nested value). */
  readonly stringRowId: number;
  /** The string's path and pointer, where the nested paths hang. */
  readonly path: string;
  readonly pointer: string;
  /** Tree depth of the nested value's root row. */
  readonly depth: number;
}

interface Entry {
  readonly embedding: Embedding;
  readonly innerId: number;
}

const registries = new WeakMap<SpanIndex, { entries: Entry[]; ids: Map<string, number> }>();

function registry(index: SpanIndex) {
  let r = registries.get(index);
  if (!r) registries.set(index, (r = { entries: [], ids: new Map() }));
  return r;
}

function virtualId(index: SpanIndex, entry: Entry): number {
  const r = registry(index);
  const key = `${entry.embedding.stringRowId}:${entry.innerId}`;
  const known = r.ids.get(key);
  if (known !== undefined) return known;
  const id = VIRTUAL_BASE + r.entries.length;
  r.entries.push(entry);
  r.ids.set(key, id);
  return id;
}

/** A nested row: the inner node at frame offsets, with a virtual id and the outer path in front. */
function moved(index: SpanIndex, node: TreeNode, parent: number, e: Embedding): TreeNode {
  const { map, via } = e.nested;
  const at = (n: number) => (n >= 0 ? map.at(n) : n);
  const start = at(node.start);
  return {
    ...node,
    id: virtualId(index, { embedding: e, innerId: node.id }),
    parent,
    depth: e.depth + node.depth,
    label: node.parent < 0 ? (via === 'tag 24' ? 'embedded item' : e.nested.label) : node.label,
    start,
    end: at(node.end),
    headerLength: at(node.start + node.headerLength) - start,
    keyStart: at(node.keyStart),
    keyEnd: at(node.keyEnd),
    path: e.path + (via === 'tag 24' ? '<embedded>' : `<${e.nested.format}>`) + node.path.slice(1),
    pointer: e.pointer + node.pointer,
  };
}

/** The nested value of a row's string: a frame node, or a node inside a nested value. */
function nestedOfRow(index: SpanIndex, rowId: number): { nested: NestedValue | null } {
  if (rowId < VIRTUAL_BASE) return { nested: nestedValue(index, rowId) };
  const entry = registry(index).entries[rowId - VIRTUAL_BASE];
  if (!entry) return { nested: null };
  const outer = entry.embedding.nested;
  return { nested: nestedValue(outer.index, entry.innerId, outer) };
}

/** Strings holding a value of their own open like containers (one child: the value). */
export function markNested(index: SpanIndex, window: ChildWindow): ChildWindow {
  let changed = false;
  const nodes = window.nodes.map((n) => {
    if ((n.kind !== 'bytes' && n.kind !== 'text') || n.isContainer || !nestedOfRow(index, n.id).nested) return n;
    changed = true;
    return { ...n, isContainer: true, childCount: 1 };
  });
  return changed ? { ...window, nodes } : window;
}

/** The children of a nested row, or of a string holding a value; null for every other node. */
export function nestedChildren(
  index: SpanIndex,
  nodeId: number,
  offset = 0,
  limit = CHILD_PAGE,
  around = -1,
): ChildWindow | null {
  const entry = nodeId >= VIRTUAL_BASE ? registry(index).entries[nodeId - VIRTUAL_BASE] : undefined;
  if (nodeId >= VIRTUAL_BASE && !entry) return { nodes: [], total: 0, offset: 0 };
  const { nested } = nestedOfRow(index, nodeId);
  if (nested) {
    // A string (of the frame or of a nested value): its one child is the value inside.
    const outer = entry
      ? moved(index, treeNode(entry.embedding.nested.index, entry.innerId, 0), -1, entry.embedding)
      : treeNode(index, nodeId, 0);
    const embedding: Embedding = {
      nested,
      stringRowId: nodeId,
      path: outer.path,
      pointer: outer.pointer,
      depth: outer.depth + 1,
    };
    const root = moved(index, treeNode(nested.index, nested.index.root, 0, 0), nodeId, embedding);
    return markNested(index, { nodes: [root], total: 1, offset: 0 });
  }
  if (!entry) return null;
  // `around` names a nested row: its node in the nested index is what the window centres on.
  const aroundEntry = around >= VIRTUAL_BASE ? registry(index).entries[around - VIRTUAL_BASE] : undefined;
  const window = childNodes(
    entry.embedding.nested.index,
    entry.innerId,
    offset,
    limit,
    aroundEntry ? aroundEntry.innerId : -1,
  );
  return markNested(index, { ...window, nodes: window.nodes.map((n) => moved(index, n, nodeId, entry.embedding)) });
}

/**
 * A click on a frame byte inside a string that holds a value goes on into that value: the
 * root-to-node `path` (frame ids) is extended through each nested value whose bytes hold
 * `offset`, down to its deepest node there (virtual ids, as the tree lists them).
 */
export function pathIntoNested(index: SpanIndex, path: readonly number[], offset: number): number[] {
  const out = [...path];
  for (let level = 0; level < MAX_NESTED_DEPTH && out.length; level++) {
    const stringRow = out[out.length - 1];
    const { nested } = nestedOfRow(index, stringRow);
    if (!nested || nested.index.root < 0) break;
    const n = nested.index.bytes.length;
    if (offset < nested.map.at(0) || offset >= nested.map.at(n)) break;
    // The inner byte whose frame bytes hold `offset` (the map is monotone).
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (nested.map.at(mid) <= offset) lo = mid;
      else hi = mid - 1;
    }
    const rootRow = nestedChildren(index, stringRow)?.nodes[0];
    const entry = rootRow ? registry(index).entries[rootRow.id - VIRTUAL_BASE] : undefined;
    if (!entry) break;
    for (const innerId of pathToOffset(nested.index, lo))
      out.push(virtualId(index, { embedding: entry.embedding, innerId }));
  }
  return out;
}
