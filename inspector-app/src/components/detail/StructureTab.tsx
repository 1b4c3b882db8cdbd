import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { FormatChoice, LargestField, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { HexView } from '../hex/HexView.js';
import { TREE_MIN_PX, useHexFit } from '../hex/use-hex-fit.js';
import {
  belowHeightPx,
  HEX_CHAR_PX_ESTIMATE,
  HEX_PLACEMENTS,
  resolvePlacement,
  type HexPlacement,
} from '../hex/hex-placement.js';
import { hexWidthPx, offsetDigits } from '../hex/hexFormat.js';
import { useLayoutStorage, usePersistentChoice, usePersistentNumber } from '../shell/persisted.js';
import { useElementSize } from '../shell/use-element-size.js';
import { TreeView, EXPAND_ALL_BUDGET } from '../tree/TreeView.js';
import { TreeSearch } from '../tree/TreeSearch.js';
import { NodeActions } from '../tree/NodeActions.js';
import { ReadAs } from '../schema/ReadAs.js';
import { isMoreRow, type TreeState } from '../tree/use-tree.js';
import { Splitter } from '../shell/Splitter.js';
import { exactBytes, formatBytes, formatRange } from '../shell/format.js';
import { LargestFields } from './LargestFields.js';
import { LONG_VALUE_CHARS, SelectedValue } from './SelectedValue.js';
import { imageTypeOf, MediaThumbnail } from './MediaThumbnail.js';
import { pathOfNode } from './path-of-node.js';
import './structure.css';

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
  /** The frame search's current match (null: none), opened and marked; `pick`: selected too (TreeSearch.tsx). */
  readonly onMatch: (path: readonly number[] | null, pick: boolean) => void;
  /** The node the frame search marks as its current match (null: none). */
  readonly matchId: number | null;
  readonly onByteClick: (offset: number) => void;
  readonly showHex: boolean;
  readonly scrollToOffset: number | null;
  /** The list's text filter: the frame's search starts with it. */
  readonly searchText?: string;
  /** Raw Protobuf: read the selected length-delimited field another way (absent: no control). */
  readonly onReadAs?: (node: TreeNode, reading: string) => void;
  /** False when the hex shows bytes the nodes do not point into (a compressed frame as captured): no highlight. */
  readonly hexLinked?: boolean;
  /** The frame decoded to no tree at all (unknown bytes, an empty frame): why, shown in the tree pane, and the views that still show it. */
  readonly noTree?: { readonly reason: string; readonly onShow: (tab: 'hex' | 'text') => void } | null;
}

/** A selected scalar's value longer than this is also shown whole, wrapped, above the tree. */

const PLACEMENT_LABELS: Record<HexPlacement, string> = { auto: 'auto', beside: 'beside', below: 'below' };

/**
 * Tree and hex: a node's row drives the highlight, a byte selects its node. The hex is a
 * toggle (remembered) placed beside the tree or below it (remembered; 'auto' puts it below
 * where beside it would starve the tree's values). Beside, the hex pane is exactly as wide as
 * its rows (16 bytes + ASCII, 8 when narrow; the splitter snaps between 8, 16 and 32); below,
 * as tall as its rows up to under half the height. The tree takes the rest.
 */
export function StructureTab(props: StructureTabProps): ReactElement {
  const {
    client,
    frameId,
    format,
    tree,
    bytes,
    frameSize,
    selected,
    errorOffset,
    sortBySize,
    onSortBySize,
    onSelectNode,
    onByteClick,
    showHex,
    scrollToOffset,
  } = props;
  const [largest, setLargest] = useState<readonly LargestField[] | null>(null);
  const [showLargest, setShowLargest] = useState(false);
  const [highlight, setHighlight] = useState('');
  const splitRef = useRef<HTMLDivElement>(null);
  const storage = useLayoutStorage();
  const [hexOn, setHexOn] = usePersistentNumber(storage, 'hexShown', 1, 0, 1);
  const [placement, setPlacement] = usePersistentChoice<HexPlacement>(storage, 'hexPlacement', 'auto', HEX_PLACEMENTS);
  // NaN until the splitter below the tree is moved: then as tall as the hex's rows.
  const [storedBelowHeight, setBelowHeight] = usePersistentNumber(storage, 'hexBelowHeight', NaN, 60, 4000);
  const pane = useElementSize(splitRef, { width: 1200, height: 600 });
  const hexShown = showHex && hexOn === 1;
  const place = resolvePlacement(placement, pane, hexWidthPx(8, offsetDigits(frameSize), HEX_CHAR_PX_ESTIMATE));
  const hexFit = useHexFit(splitRef, frameSize, place === 'below' ? 0 : TREE_MIN_PX);
  const belowMax = Math.max(60, pane.height - 120);
  const belowHeight = Math.min(
    belowMax,
    Number.isNaN(storedBelowHeight) ? belowHeightPx(frameSize, hexFit.bytesPerRow, pane.height) : storedBelowHeight,
  );

  useEffect(() => setLargest(null), [frameId, format]);
  useEffect(() => {
    if (showLargest && largest === null) void client.call('largest', { frameId, format, count: 12 }).then(setLargest);
  }, [showLargest, largest, client, frameId, format]);

  const rootRow = tree.rows[0] && !isMoreRow(tree.rows[0]) ? tree.rows[0] : null;
  const mediaType = imageTypeOf(rootRow);

  const selectLargest = async (field: LargestField) => {
    props.onSelectPath(await pathOfNode(client, frameId, format, field));
  };

  return (
    <div
      className={`ws-split ws-structure${hexShown && place === 'below' ? ' ws-hex-below' : ''}`}
      ref={splitRef}
      data-testid="structure"
      data-hex={hexShown ? place : 'hidden'}
    >
      <span className="hex-measure" ref={hexFit.measureRef} aria-hidden="true">
        0000000000
      </span>
      <div className="ws-tree-pane">
        <div className="ws-toolbar" role="toolbar" aria-label="Tree">
          <label>
            <input type="checkbox" checked={sortBySize} onChange={(e) => onSortBySize(e.target.checked)} /> sort by size
          </label>
          <label>
            <input
              type="checkbox"
              checked={showLargest}
              onChange={(e) => setShowLargest(e.target.checked)}
              data-testid="largest-toggle"
            />{' '}
            largest fields
          </label>
          <label title="Show the bytes beside or below the tree (key: h)">
            <input
              type="checkbox"
              checked={hexOn === 1}
              onChange={(e) => setHexOn(e.target.checked ? 1 : 0)}
              data-testid="hex-toggle"
            />
            hex
          </label>
          {hexOn === 1 && (
            <select
              aria-label="Where the hex goes"
              value={placement}
              onChange={(e) => setPlacement(e.target.value as HexPlacement)}
              data-testid="hex-placement"
              title="auto: beside the tree when there is room for its values, else below"
            >
              {HEX_PLACEMENTS.map((p) => (
                <option key={p} value={p}>
                  {PLACEMENT_LABELS[p]}
                </option>
              ))}
            </select>
          )}
          <button
            type="button"
            data-testid="expand-all"
            title={`Open every container below the selected node (up to ${EXPAND_ALL_BUDGET.toLocaleString('en-US')} rows); key: *`}
            onClick={() => {
              const first = tree.rows[0];
              const target = selected ?? (first && !isMoreRow(first) ? first : null);
              if (target) void tree.expandAll(target.id, EXPAND_ALL_BUDGET);
            }}
          >
            Expand all
          </button>
          <TreeSearch
            client={client}
            frameId={frameId}
            format={format}
            initialText={props.searchText ?? ''}
            onMatch={props.onMatch}
            onHighlight={setHighlight}
          />
        </div>
        {mediaType && bytes && <MediaThumbnail type={mediaType} bytes={bytes} summary={rootRow!.preview} />}
        {selected && (
          <div className="ws-toolbar ws-node-bar">
            <span
              className="ws-mono ws-node-range"
              data-testid="selected-range"
              title={`end exclusive; ${exactBytes(selected.end - selected.start)}`}
            >
              {selected.path} · bytes {formatRange(selected.start, selected.end)} (
              {formatBytes(selected.end - selected.start)})
            </span>
            {props.onReadAs && <ReadAs node={selected} onReadAs={props.onReadAs} />}
            <span className="ws-spacer" />
            <NodeActions client={client} frameId={frameId} format={format} node={selected} bytes={bytes} />
          </div>
        )}
        {/* A long scalar's value, whole and wrapped, once its row is clicked (the row's cell may cut it). */}
        {selected && !selected.isContainer && selected.preview.length > LONG_VALUE_CHARS && (
          <SelectedValue client={client} frameId={frameId} format={format} node={selected} />
        )}
        {/* Remounted on a sort toggle, so the sorted list shows from its top. */}
        {props.noTree ? (
          <div className="ws-empty" data-testid="tree-empty" role="status">
            <p>{props.noTree.reason}</p>
            <p>
              <button type="button" onClick={() => props.noTree?.onShow('hex')}>
                Show hex
              </button>{' '}
              <button type="button" onClick={() => props.noTree?.onShow('text')}>
                Show as text
              </button>
            </p>
          </div>
        ) : (
          <TreeView
            key={sortBySize ? 'by-size' : 'in-order'}
            tree={tree}
            frameSize={frameSize}
            selectedId={selected?.id ?? null}
            matchId={props.matchId}
            onSelect={onSelectNode}
            highlight={highlight}
          />
        )}
        {showLargest && <LargestFields fields={largest} frameSize={frameSize} onPick={(f) => void selectLargest(f)} />}
      </div>
      {hexShown && (
        <>
          {place === 'beside' ? (
            <Splitter
              orientation="vertical"
              label="Resize hex pane"
              value={hexFit.widthPx}
              min={hexFit.minPx}
              max={hexFit.maxPx}
              direction={-1}
              keyStep={240}
              onResize={hexFit.resize}
              testId="hex-splitter"
            />
          ) : (
            <Splitter
              orientation="horizontal"
              label="Resize hex pane"
              value={belowHeight}
              min={60}
              max={belowMax}
              direction={-1}
              onResize={setBelowHeight}
              testId="hex-splitter"
            />
          )}
          <div className="ws-hex-pane" style={place === 'below' ? { height: belowHeight } : undefined}>
            {bytes ? (
              <HexView
                bytes={bytes}
                selection={props.hexLinked === false ? null : selected}
                errorOffset={errorOffset}
                onByteClick={onByteClick}
                scrollToOffset={scrollToOffset}
                bytesPerRow={hexFit.bytesPerRow}
                fitWidth={place === 'beside'}
              />
            ) : (
              <div className="ws-empty">loading bytes…</div>
            )}
          </div>
        </>
      )}
    </div>
  );
}
