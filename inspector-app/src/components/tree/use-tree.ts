import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormatChoice, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';

export interface TreeState {
  /** Visible rows in order (expanded subtrees flattened). */
  readonly rows: readonly TreeNode[];
  readonly expanded: ReadonlySet<number>;
  readonly loading: ReadonlySet<number>;
  readonly nodes: ReadonlyMap<number, TreeNode>;
  toggle(nodeId: number): void;
  expand(nodeId: number): Promise<void>;
  collapse(nodeId: number): void;
  /** Expands every ancestor on a root-to-node id path (from the worker's nodeAt). */
  reveal(path: readonly number[]): Promise<void>;
}

/**
 * The lazily opened tree of one frame: children are asked from the worker (which indexes
 * that one level) the first time a node opens. Flattening is iterative.
 */
export function useTree(client: Pick<WorkerClient, 'call'>, frameId: number, format: FormatChoice, root: TreeNode | null, sortBySize: boolean): TreeState {
  const [children, setChildren] = useState<ReadonlyMap<number, readonly TreeNode[]>>(new Map());
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [loading, setLoading] = useState<ReadonlySet<number>>(new Set());
  const pending = useRef(new Map<number, Promise<readonly TreeNode[]>>());
  const generation = useRef(0);

  useEffect(() => {
    generation.current++;
    pending.current.clear();
    setChildren(new Map());
    setExpanded(root && root.isContainer ? new Set([root.id]) : new Set());
    setLoading(new Set());
  }, [frameId, format, root]);

  const load = useCallback(
    (nodeId: number): Promise<readonly TreeNode[]> => {
      const known = pending.current.get(nodeId);
      if (known) return known;
      const gen = generation.current;
      setLoading((s) => new Set(s).add(nodeId));
      const p = client.call('children', { frameId, format, nodeId }).then((list) => {
        if (gen === generation.current) {
          setChildren((m) => new Map(m).set(nodeId, list));
          setLoading((s) => {
            const n = new Set(s);
            n.delete(nodeId);
            return n;
          });
        }
        return list;
      });
      pending.current.set(nodeId, p);
      return p;
    },
    [client, frameId, format],
  );

  // The root opens at once: a 10 MB frame shows its top level without more work.
  useEffect(() => {
    if (root && root.isContainer) void load(root.id);
  }, [root, load]);

  const expand = useCallback(
    async (nodeId: number) => {
      setExpanded((s) => (s.has(nodeId) ? s : new Set(s).add(nodeId)));
      await load(nodeId);
    },
    [load],
  );

  const collapse = useCallback((nodeId: number) => {
    setExpanded((s) => {
      if (!s.has(nodeId)) return s;
      const n = new Set(s);
      n.delete(nodeId);
      return n;
    });
  }, []);

  const toggle = useCallback((nodeId: number) => (expanded.has(nodeId) ? collapse(nodeId) : void expand(nodeId)), [expanded, expand, collapse]);

  const reveal = useCallback(
    async (path: readonly number[]) => {
      // Every node on the path but the last one opens, top-down (each needs its parent's rows).
      for (const id of path.slice(0, -1)) await expand(id);
    },
    [expand],
  );

  const nodes = useMemo(() => {
    const m = new Map<number, TreeNode>();
    if (root) m.set(root.id, root);
    for (const list of children.values()) for (const n of list) m.set(n.id, n);
    return m;
  }, [root, children]);

  const rows = useMemo(() => {
    const out: TreeNode[] = [];
    if (!root) return out;
    const stack: TreeNode[] = [root];
    while (stack.length) {
      const node = stack.pop()!;
      out.push(node);
      if (!expanded.has(node.id)) continue;
      let list = children.get(node.id);
      if (!list) continue;
      if (sortBySize) list = [...list].sort((a, b) => b.end - b.start + (b.keyEnd - b.keyStart) - (a.end - a.start + (a.keyEnd - a.keyStart)));
      for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]);
    }
    return out;
  }, [root, children, expanded, sortBySize]);

  return { rows, expanded, loading, nodes, toggle, expand, collapse, reveal };
}
