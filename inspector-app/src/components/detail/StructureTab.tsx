import { useEffect, useState, type ReactElement } from 'react';
import type { FormatChoice, LargestField, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { HexView } from '../hex/HexView.js';
import { TreeView } from '../tree/TreeView.js';
import type { TreeState } from '../tree/use-tree.js';
import { formatBytes, percent } from '../shell/format.js';

export interface StructureTabProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  readonly tree: TreeState;
  readonly bytes: Uint8Array | null;
  readonly frameSize: number;
  readonly selected: TreeNode | null;
  readonly errorOffset: number | null;
  readonly sortBySize: boolean;
  readonly onSortBySize: (v: boolean) => void;
  readonly onSelectNode: (node: TreeNode) => void;
  readonly onSelectPath: (path: readonly number[]) => void;
  readonly onByteClick: (offset: number) => void;
  readonly showHex: boolean;
  readonly scrollToOffset: number | null;
}

/** Tree and hex side by side: a node's row drives the highlight, a byte selects its node. */
export function StructureTab(props: StructureTabProps): ReactElement {
  const { client, frameId, format, tree, bytes, frameSize, selected, errorOffset, sortBySize, onSortBySize, onSelectNode, onByteClick, showHex, scrollToOffset } = props;
  const [largest, setLargest] = useState<readonly LargestField[] | null>(null);
  const [showLargest, setShowLargest] = useState(false);

  useEffect(() => setLargest(null), [frameId, format]);
  useEffect(() => {
    if (showLargest && largest === null) void client.call('largest', { frameId, format, count: 12 }).then(setLargest);
  }, [showLargest, largest, client, frameId, format]);

  const selectLargest = async (field: LargestField) => {
    props.onSelectPath(await pathOfNode(client, frameId, format, field));
  };

  return (
    <div className="ws-split">
      <div style={{ display: 'flex', flexDirection: 'column', minWidth: 360, flex: '1 1 0' }}>
        <div className="ws-toolbar">
          <label>
            <input type="checkbox" checked={sortBySize} onChange={(e) => onSortBySize(e.target.checked)} /> sort by size
          </label>
          <label>
            <input type="checkbox" checked={showLargest} onChange={(e) => setShowLargest(e.target.checked)} data-testid="largest-toggle" /> largest fields
          </label>
          <span className="ws-spacer" />
          {selected && (
            <span className="ws-mono" data-testid="selected-range">
              {selected.path} · bytes {selected.start}–{selected.end} ({selected.end - selected.start} B)
            </span>
          )}
        </div>
        {/* Remounted on a sort toggle, so the sorted list shows from its top. */}
        <TreeView key={sortBySize ? 'by-size' : 'in-order'} tree={tree} frameSize={frameSize} selectedId={selected?.id ?? null} onSelect={onSelectNode} />
        {showLargest && (
          <div className="ws-largest" aria-label="Largest fields" data-testid="largest-fields">
            {largest === null ? (
              'measuring…'
            ) : (
              <ul>
                {largest.map((f) => (
                  <li key={f.nodeId} onClick={() => void selectLargest(f)}>
                    <span className="ws-mono" style={{ flex: 1 }}>
                      {f.path}
                    </span>
                    <span>{formatBytes(f.size)}</span>
                    <span style={{ width: 40, textAlign: 'right' }}>{percent(f.size, frameSize)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {showHex && (
        <div style={{ display: 'flex', flexDirection: 'column', borderLeft: '1px solid var(--ws-border)', flex: '0 1 auto', width: 'max-content', minWidth: 0, overflowX: 'auto' }}>
          {bytes ? (
            <HexView bytes={bytes} selection={selected} errorOffset={errorOffset} onByteClick={onByteClick} scrollToOffset={scrollToOffset} />
          ) : (
            <div className="ws-empty">loading bytes…</div>
          )}
        </div>
      )}
    </div>
  );
}

/** Root-to-node ids for a field from the largest list: the deepest node at its first byte, walked up to it. */
async function pathOfNode(client: Pick<WorkerClient, 'call'>, frameId: number, format: FormatChoice, field: LargestField): Promise<number[]> {
  // The path to the deepest node at the field's first payload byte passes through the field.
  const full = await client.call('nodeAt', { frameId, format, offset: field.start });
  const at = full.indexOf(field.nodeId);
  return at >= 0 ? full.slice(0, at + 1) : full;
}
