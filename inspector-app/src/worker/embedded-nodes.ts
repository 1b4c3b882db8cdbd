/**
 * Tag 24's embedded CBOR as a nested tree: the byte string under the tag opens like a
 * container whose child is the embedded item, read from its own index
 * (codecs/cbor/embedded.ts). Its rows carry ids above VIRTUAL_BASE (the frame's own ids
 * never get there) and byte ranges moved to the frame's offsets, so the hex highlight
 * works unchanged.
 */
import { embeddedCbor, embeddedOffset, type SpanIndex } from '../../../codecs/index.js';
import type { ChildWindow, TreeNode } from './api.js';
import { childNodes, treeNode, CHILD_PAGE } from './tree-nodes.js';

/** Ids of embedded rows start here: a frame's own node ids stay far below (memory). */
export const VIRTUAL_BASE = 2 ** 30;

/** Where one tag-24 byte string's embedded item hangs in the frame's tree. */
interface Embedding {
  readonly inner: SpanIndex;
  /** The outer byte string's node id. */
  readonly bytesId: number;
  /** The frame offset of the embedded item's byte 0. */
  readonly offset: number;
  /** The byte string's path and pointer, where the embedded paths hang. */
  readonly path: string;
  readonly pointer: string;
  /** Tree depth of the embedded item's root row. */
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
  const key = `${entry.embedding.bytesId}:${entry.innerId}`;
  const known = r.ids.get(key);
  if (known !== undefined) return known;
  const id = VIRTUAL_BASE + r.entries.length;
  r.entries.push(entry);
  r.ids.set(key, id);
  return id;
}

/** An embedded row: the inner node with frame offsets, a virtual id and the outer path in front. */
function moved(index: SpanIndex, node: TreeNode, parent: number, e: Embedding): TreeNode {
  const shift = (n: number) => (n >= 0 ? n + e.offset : n);
  return {
    ...node,
    id: virtualId(index, { embedding: e, innerId: node.id }),
    parent,
    depth: e.depth + node.depth,
    label: node.parent < 0 ? 'embedded item' : node.label,
    start: shift(node.start),
    end: shift(node.end),
    keyStart: shift(node.keyStart),
    keyEnd: shift(node.keyEnd),
    path: e.path + '<embedded>' + node.path.slice(1),
    pointer: e.pointer + node.pointer,
  };
}

/** Byte strings under tag 24 that read as CBOR open like containers. */
export function markEmbedded(index: SpanIndex, window: ChildWindow): ChildWindow {
  if (index.format !== 'cbor') return window;
  let changed = false;
  const nodes = window.nodes.map((n) => {
    if (n.kind !== 'bytes' || n.id >= VIRTUAL_BASE || !embeddedCbor(index, n.id)) return n;
    changed = true;
    return { ...n, isContainer: true, childCount: 1 };
  });
  return changed ? { ...window, nodes } : window;
}

/** The children of an embedded row, or of a tag-24 byte string; null for every other node. */
export function embeddedChildren(index: SpanIndex, nodeId: number, offset = 0, limit = CHILD_PAGE): ChildWindow | null {
  if (nodeId >= VIRTUAL_BASE) {
    const entry = registry(index).entries[nodeId - VIRTUAL_BASE];
    if (!entry) return { nodes: [], total: 0, offset: 0 };
    // (A tag 24 inside the embedded item stays a byte string: one level of nesting is shown.)
    const window = childNodes(entry.embedding.inner, entry.innerId, offset, limit);
    return { ...window, nodes: window.nodes.map((n) => moved(index, n, nodeId, entry.embedding)) };
  }
  const inner = embeddedCbor(index, nodeId);
  if (!inner) return null;
  const outer = treeNode(index, nodeId, 0);
  const embedding: Embedding = { inner, bytesId: nodeId, offset: embeddedOffset(index, nodeId), path: outer.path, pointer: outer.pointer, depth: outer.depth + 1 };
  return { nodes: [moved(index, treeNode(inner, inner.root, 0, 0), nodeId, embedding)], total: 1, offset: 0 };
}
