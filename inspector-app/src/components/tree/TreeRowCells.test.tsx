// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { TreeNode } from '../../worker/api';
import { TreeView } from './TreeView';
import type { TreeState } from './use-tree';

afterEach(cleanup);

function node(over: Partial<TreeNode>): TreeNode {
  return {
    id: 0,
    parent: -1,
    depth: 0,
    label: '$',
    keyStart: -1,
    keyEnd: -1,
    kind: 'map',
    head: 'map(1)',
    preview: '{1 entry}',
    start: 0,
    end: 10_000,
    headerLength: 1,
    isContainer: true,
    childCount: 1,
    incomplete: false,
    duplicateKey: false,
    path: '$',
    pointer: '',
    crdtId: null,
    crdtSpan: null,
    ...over,
  };
}

/** A tree state with every given node shown (no worker: rows are what the test says). */
function stateOf(nodes: TreeNode[]): TreeState {
  return {
    rows: nodes,
    expanded: new Set(nodes.filter((n) => n.isContainer && n.childCount > 0).map((n) => n.id)),
    loading: new Set(),
    nodes: new Map(nodes.map((n) => [n.id, n])),
    toggle() {},
    expand: async () => {},
    collapse() {},
    loadMore() {},
    expandAll: async () => {},
    reveal: async () => {},
  };
}

const rowOf = (id: number) =>
  screen.getAllByTestId('tree-row').find((r) => r.getAttribute('data-node-id') === String(id))!;

describe('tree rows: share of parent and of frame', () => {
  // A 10,000-byte frame: root map → "users" (8,000 B with key) → "tiny" (40 B of a 100 B record).
  const root = node({});
  const users = node({
    id: 2,
    parent: 0,
    depth: 1,
    label: 'users',
    keyStart: 1,
    keyEnd: 7,
    kind: 'array',
    head: 'array(80)',
    preview: '[80 items]',
    start: 7,
    end: 8001,
    path: '$.users',
  });
  const record = node({
    id: 3,
    parent: 2,
    depth: 2,
    label: '[0]',
    head: 'map(1)',
    start: 10,
    end: 110,
    path: '$.users[0]',
  });
  const tiny = node({
    id: 5,
    parent: 3,
    depth: 3,
    label: 'tiny',
    keyStart: 11,
    keyEnd: 16,
    kind: 'text',
    head: 'text(34)',
    preview: '"…"',
    start: 16,
    end: 51,
    isContainer: false,
    childCount: -1,
    path: '$.users[0].tiny',
  });

  it('shows % of parent and % of frame as text, the bar relative to the parent', () => {
    render(
      <TreeView tree={stateOf([root, users, record, tiny])} frameSize={10_000} selectedId={null} onSelect={() => {}} />,
    );
    const row = rowOf(5);
    // 40 B of a 100 B parent, 0.4 % of the frame: both readable without a hover.
    expect(row.querySelector('[data-testid="share-parent"]')!.textContent).toBe('40%');
    expect(row.querySelector('[data-testid="share-frame"]')!.textContent).toBe('0.40%');
    expect((row.querySelector('.ws-share-bar > span') as HTMLElement).style.width).toBe('40%');
    expect(rowOf(2).querySelector('[data-testid="share-frame"]')!.textContent).toBe('80%');
    expect(rowOf(0).querySelector('[data-testid="share-frame"]')!.textContent).toBe('100%');
  });
});

describe('tree rows: one convention for shares', () => {
  it("takes % of parent against the parent's bytes as the bytes column shows them, its key included", () => {
    // `account` is 28 B with its 9 B key; its child `id` 17 B: 61 % of 28 B, not 89 % of the 19 B without the key.
    const account = node({
      id: 1,
      parent: 0,
      depth: 1,
      label: 'account',
      keyStart: 1,
      keyEnd: 10,
      head: 'map(1)',
      start: 10,
      end: 29,
      path: '$.account',
    });
    const id = node({
      id: 2,
      parent: 1,
      depth: 2,
      label: 'id',
      keyStart: 11,
      keyEnd: 14,
      kind: 'bytes',
      head: 'bytes(12)',
      preview: 'h…',
      start: 14,
      end: 28,
      isContainer: false,
      childCount: -1,
      path: '$.account.id',
    });
    render(
      <TreeView
        tree={stateOf([node({ end: 100 }), account, id])}
        frameSize={100}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    const sizes = (n: number) => rowOf(n).querySelector('.ws-tree-size')!.textContent;
    expect(sizes(1)).toBe('28 B');
    expect(sizes(2)).toBe('17 B');
    const share = rowOf(2).querySelector('[data-testid="share-parent"]')!;
    expect(share.textContent).toBe('61%');
    // The header says what the share is taken against.
    expect(screen.getByTestId('tree-header').textContent).toContain('% of parent');
    expect(share.getAttribute('title')).toMatch(/of the parent's 28 bytes \(its key included\)/);
  });
});

describe('tree rows: labels', () => {
  it('never reads "memo undefined undefined"', () => {
    const memo = node({
      id: 1,
      parent: 0,
      depth: 1,
      label: 'memo',
      kind: 'undefined',
      head: 'undefined',
      preview: 'undefined',
      start: 5,
      end: 6,
      isContainer: false,
      childCount: -1,
      keyStart: 0,
      keyEnd: 5,
    });
    render(<TreeView tree={stateOf([node({}), memo])} frameSize={100} selectedId={null} onSelect={() => {}} />);
    expect(rowOf(1).querySelector('.ws-tree-main')!.textContent).not.toMatch(/undefined\s*undefined/);
  });

  it('no expand arrow on a container without children, and a CRDT id shown once', () => {
    const empty = node({
      id: 1,
      parent: 0,
      depth: 1,
      label: 'cursors',
      kind: 'crdt_obj',
      head: 'obj 65537.56 (0 keys)',
      preview: '{}',
      childCount: 0,
      crdtId: '65537.56',
      start: 3,
      end: 6,
    });
    const op = node({
      id: 2,
      parent: 0,
      depth: 1,
      label: '[0]',
      kind: 'crdt_id',
      head: 'id 65537.21',
      preview: '',
      isContainer: false,
      childCount: -1,
      crdtId: '65537.21',
      start: 6,
      end: 8,
    });
    render(
      <TreeView
        tree={stateOf([node({ childCount: 2 }), empty, op])}
        frameSize={100}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    expect(rowOf(1).querySelector('.ws-tree-toggle')!.textContent).toBe('');
    expect(rowOf(1).getAttribute('aria-expanded')).toBeNull();
    expect(rowOf(2).textContent!.match(/65537\.21/g)).toHaveLength(1);
    expect(rowOf(1).textContent!.match(/65537\.56/g)).toHaveLength(1);
  });

  it('says a word once when the label already names the kind (json-joy "id id 11019.60", "meta meta")', () => {
    const id = node({
      id: 1,
      parent: 0,
      depth: 1,
      label: 'id',
      kind: 'crdt_id',
      head: 'id 11019.60',
      preview: '',
      isContainer: false,
      childCount: -1,
      crdtId: '11019.60',
      start: 0,
      end: 3,
    });
    const meta = node({
      id: 2,
      parent: 0,
      depth: 1,
      label: 'meta',
      kind: 'crdt_meta',
      head: 'meta',
      preview: 'undefined',
      childCount: 0,
      start: 3,
      end: 4,
    });
    render(
      <TreeView
        tree={stateOf([node({ childCount: 2 }), id, meta])}
        frameSize={100}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    // Key, head and value are columns of their own: read them together.
    const words = (row: Element) =>
      ['.ws-tree-main', '.ws-tree-head', '.ws-tree-value'].map((c) => row.querySelector(c)!.textContent).join('');
    expect(words(rowOf(1))).toBe('id11019.60');
    expect(words(rowOf(2))).toBe('metaundefined');
  });
});

describe('tree rows: flags', () => {
  it('an incomplete value says so before its (long) value, where the cell cannot cut it off', () => {
    const blob = node({
      id: 1,
      label: 'blob',
      kind: 'bytes',
      head: 'bytes(200)',
      preview: `h'${'ab'.repeat(40)}…' (40 of 200 bytes arrived)`,
      isContainer: false,
      childCount: -1,
      incomplete: true,
    });
    render(<TreeView tree={stateOf([blob])} frameSize={60} selectedId={null} onSelect={() => {}} />);
    const value = rowOf(1).querySelector('.ws-tree-value')!;
    expect(value.firstElementChild?.textContent).toBe('incomplete');
  });
});
