import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../worker/api.js';
import { treeColumnWidths } from './TreeView.js';

const node = (depth: number, label: string, head: string) =>
  ({ depth, label, head, crdtId: null }) as unknown as TreeNode;

const rows = [node(0, '$', 'tag(55799)'), node(2, 'epoch seconds', 'unsigned'), node(1, 'statement', 'tag(32)')];

describe('tree key and kind column widths', () => {
  it('fit their longest text, within caps, when nothing was dragged', () => {
    const { key, kind } = treeColumnWidths(rows, 1000);
    expect(key).toBeGreaterThanOrEqual(2 * 14 + 12 + 13 * 7);
    expect(key).toBeLessThanOrEqual(260);
    expect(kind).toBeGreaterThanOrEqual(10 * 7);
    expect(kind).toBeLessThanOrEqual(170);
  });

  it('take the widths they were dragged to, past the caps and below the text', () => {
    expect(treeColumnWidths(rows, 1400, { key: 320, kind: 200 })).toEqual({ key: 320, kind: 200 });
    expect(treeColumnWidths(rows, 1000, { key: 60, kind: 40 })).toEqual({ key: 60, kind: 40 });
    // One dragged, the other still fitted.
    const fitted = treeColumnWidths(rows, 1000);
    expect(treeColumnWidths(rows, 1000, { key: 90, kind: NaN })).toEqual({ key: 90, kind: fitted.kind });
  });

  it('a dragged width still leaves the value its floor in a narrow tree', () => {
    const { key, kind } = treeColumnWidths(rows, 500, { key: 400, kind: 300 });
    expect(500 - 236 - key - kind).toBeGreaterThanOrEqual(48);
  });

  it('a long key (a compressed root) leaves the value a third of the flexible width in a 580 px tree', () => {
    const long = [node(0, 'gzip → cbor, 152 → 391 bytes (2.6x)', 'map(2)'), node(1, 'users', 'array(20)')];
    const { key, kind } = treeColumnWidths(long, 580);
    const flexible = 580 - 236;
    expect(flexible - key - kind).toBeGreaterThanOrEqual(Math.floor(flexible * 0.3));
    expect(key).toBeGreaterThanOrEqual(88);
  });
});
