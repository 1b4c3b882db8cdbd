import { useCallback, useEffect, useMemo, useRef, useState, startTransition } from 'react';
import type { ChildWindow, FormatChoice, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';

/** Children asked per request: a 100,000-item array opens a window at a time. */
export const TREE_PAGE = 1000;

/** A row standing for children not loaded yet, before or after a loaded window. */
export interface MoreRow {
  readonly moreOf: number;
  readonly depth: number;
  /** 'before': children above the window; 'after': below it. */
  readonly side: 'before' | 'after';
  readonly count: number;
}

export type TreeRowItem = TreeNode | MoreRow;
export const isMoreRow = (r: TreeRowItem): r is MoreRow => 'moreOf' in r;

export interface TreeState {
  /** Visible rows in order (expanded subtrees flattened). */
  readonly rows: readonly TreeRowItem[];
  readonly expanded: ReadonlySet<number>;
  readonly loading: ReadonlySet<number>;
  readonly nodes: ReadonlyMap<number, TreeNode>;
  toggle(nodeId: number): void;
  expand(nodeId: number): Promise<void>;
  collapse(nodeId: number): void;
  /** Loads the next (or previous) window of a node's children. */
  loadMore(row: MoreRow): void;
  /** Opens `nodeId` and the containers below it, level by level, until `budget` rows are loaded. */
  expandAll(nodeId: number, budget: number): Promise<void>;
  /** Expands every ancestor on a root-to-node id path (from the worker's nodeAt). */
  reveal(path: readonly number[]): Promise<void>;
}

/**
 * The lazily opened tree of one frame: children are asked from the worker (which indexes
 * that one level) the first time a node opens, a window of TREE_PAGE at a time. Flattening
 * is iterative.
 */
export function useTree(
  client: Pick<WorkerClient, 'call'>,
  frameId: number,
  format: FormatChoice,
  root: TreeNode | null,
  sortBySize: boolean,
): TreeState {
  const [children, setChildren] = useState<ReadonlyMap<number, ChildWindow>>(new Map());
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const expandedRef = useRef(expanded);
  expandedRef.current = expanded;
  const [loading, setLoading] = useState<ReadonlySet<number>>(new Set());
  const pending = useRef(new Map<number, Promise<ChildWindow>>());
  const windows = useRef(new Map<number, ChildWindow>());
  const generation = useRef(0);
  // The worker sorts a whole container by size before paging (a page is the top of all of it).
  const sortRef = useRef(sortBySize);

  useEffect(() => {
    generation.current++;
    pending.current.clear();
    windows.current = new Map();
    setChildren(new Map());
    setExpanded(root?.isContainer ? new Set([root.id]) : new Set());
    setLoading(new Set());
  }, [frameId, format, root]);

  const fetchWindow = useCallback(
    (nodeId: number, params: { offset?: number; around?: number }, merge: boolean): Promise<ChildWindow> => {
      const gen = generation.current;
      setLoading((s) => new Set(s).add(nodeId));
      return client
        .call('children', { frameId, format, nodeId, limit: TREE_PAGE, sortBySize: sortRef.current, ...params })
        .then((win) => {
          if (gen !== generation.current) return win;
          const old = windows.current.get(nodeId);
          let next = win;
          // Adjacent windows join, so "more" rows extend what is shown.
          if (merge && old && win.offset === old.offset + old.nodes.length)
            next = { ...old, nodes: [...old.nodes, ...win.nodes] };
          else if (merge && old && win.offset + win.nodes.length === old.offset)
            next = { ...old, offset: win.offset, nodes: [...win.nodes, ...old.nodes] };
          windows.current.set(nodeId, next);
          setChildren(new Map(windows.current));
          setLoading((s) => {
            const n = new Set(s);
            n.delete(nodeId);
            return n;
          });
          return next;
        });
    },
    [client, frameId, format],
  );

  const load = useCallback(
    (nodeId: number): Promise<ChildWindow> => {
      const known = pending.current.get(nodeId);
      if (known) return known;
      const p = fetchWindow(nodeId, { offset: 0 }, false);
      pending.current.set(nodeId, p);
      return p;
    },
    [fetchWindow],
  );

  // Sorting changes which children each window holds: open nodes stay open, their windows reload.
  useEffect(() => {
    if (sortRef.current === sortBySize) return;
    sortRef.current = sortBySize;
    generation.current++;
    pending.current.clear();
    windows.current = new Map();
    setChildren(new Map());
    for (const id of expandedRef.current) void load(id);
  }, [sortBySize, load]);

  // The root opens at once: a 10 MB frame shows its top level without more work.
  useEffect(() => {
    if (root?.isContainer) void load(root.id);
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

  const toggle = useCallback(
    (nodeId: number) => (expanded.has(nodeId) ? collapse(nodeId) : void expand(nodeId)),
    [expanded, expand, collapse],
  );

  const loadMore = useCallback(
    (row: MoreRow) => {
      const win = windows.current.get(row.moreOf);
      if (!win) return;
      const offset = row.side === 'after' ? win.offset + win.nodes.length : Math.max(0, win.offset - TREE_PAGE);
      void fetchWindow(row.moreOf, { offset }, true);
    },
    [fetchWindow],
  );

  const expandAll = useCallback(
    async (nodeId: number, budget: number) => {
      const gen = generation.current;
      const opened: number[] = [];
      let level = [nodeId];
      let shown = 0;
      // Breadth first, one level's windows asked together: the budget stops the top levels
      // of a huge frame from being starved by one deep branch.
      while (level.length && shown < budget) {
        const wins = await Promise.all(level.map((id) => load(id)));
        if (gen !== generation.current) return;
        const next: number[] = [];
        for (let i = 0; i < level.length && shown < budget; i++) {
          opened.push(level[i]);
          shown += wins[i].nodes.length;
          for (const n of wins[i].nodes) if (n.isContainer) next.push(n.id);
        }
        level = next;
      }
      setExpanded((s) => {
        const n = new Set(s);
        for (const id of opened) n.add(id);
        return n;
      });
    },
    [load],
  );

  const reveal = useCallback(
    async (path: readonly number[]) => {
      // Every node on the path but the last opens, top-down; a child outside the loaded
      // window (deep in a long array) gets a window around it. The windows are fetched
      // first and shown in one state update: an update per level copied the maps and
      // re-listed the rows at every level, quadratic on a path through 100,000 nested arrays.
      const gen = generation.current;
      const opened: number[] = [];
      for (let i = 0; i < path.length - 1; i++) {
        const id = path[i];
        const next = path[i + 1];
        let win =
          windows.current.get(id) ??
          (await (pending.current.get(id) ??
            client.call('children', { frameId, format, nodeId: id, limit: TREE_PAGE, offset: 0 })));
        if (gen !== generation.current) return;
        if (!win.nodes.some((n) => n.id === next))
          win = await client.call('children', { frameId, format, nodeId: id, limit: TREE_PAGE, around: next });
        if (gen !== generation.current) return;
        windows.current.set(id, win);
        opened.push(id);
      }
      if (!opened.length) return;
      // A transition: React renders the (possibly 100,000 more) rows in slices between
      // other work instead of in one task.
      startTransition(() => {
        setChildren(new Map(windows.current));
        setExpanded((s) => {
          const n = new Set(s);
          for (const id of opened) n.add(id);
          return n;
        });
      });
    },
    [client, frameId, format],
  );

  const nodes = useMemo(() => {
    const m = new Map<number, TreeNode>();
    if (root) m.set(root.id, root);
    for (const win of children.values()) for (const n of win.nodes) m.set(n.id, n);
    return m;
  }, [root, children]);

  const rows = useMemo(() => {
    const out: TreeRowItem[] = [];
    if (!root) return out;
    const stack: TreeRowItem[] = [root];
    while (stack.length) {
      const item = stack.pop()!;
      out.push(item);
      if (isMoreRow(item) || !expanded.has(item.id)) continue;
      const win = children.get(item.id);
      if (!win) continue;
      const list = win.nodes;
      const depth = item.depth + 1;
      const after = win.total - win.offset - win.nodes.length;
      if (after > 0) stack.push({ moreOf: item.id, depth, side: 'after', count: after });
      for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]);
      if (win.offset > 0) stack.push({ moreOf: item.id, depth, side: 'before', count: win.offset });
    }
    return out;
  }, [root, children, expanded]);

  return { rows, expanded, loading, nodes, toggle, expand, collapse, loadMore, expandAll, reveal };
}
