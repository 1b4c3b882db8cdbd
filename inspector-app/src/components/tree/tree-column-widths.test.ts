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
});
