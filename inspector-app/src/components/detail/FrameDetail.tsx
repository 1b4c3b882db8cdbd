import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import type { FormatChoice, FrameSummary, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useTree } from '../tree/use-tree.js';
import { HexTab } from '../hex/HexTab.js';
import { exactBytes, formatBytes } from '../shell/format.js';
import { focusWhenDrawn } from '../shell/shortcuts.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import { panelId, TabBar, tabId } from './TabBar.js';
import { BytesTab } from '../bytes/BytesTab.js';
import { CompareTab } from '../compare/CompareTab.js';
import { CompareModes } from '../compare/session/CompareModes.js';
import type { SessionSource } from '../compare/session/SessionCompare.js';
import { CrdtTab } from '../crdt/CrdtTab.js';
import { DiffTab } from '../diff/DiffTab.js';
import { ErrorBanner } from './ErrorBanner.js';
import { UnknownBanner } from './UnknownBanner.js';
import { ProtocolLinks } from './ProtocolLinks.js';
import { CompressionBanner } from './CompressionBanner.js';
import { SchemaReadingBanner } from './SchemaReadingBanner.js';
import { FrameActions } from './FrameActions.js';
import type { PageActionRequest } from './FrameMenu.js';
import { PageActions, type PageActionsHost } from './PageActions.js';
import { StructureTab } from './StructureTab.js';
import { pathOfNode } from './path-of-node.js';
import { TextTab } from './TextTab.js';
import { withReading } from '../schema/ReadAs.js';
import { DEFAULT_DETAIL_VIEW, type DetailTab, type DetailView } from '../../state/detail-view.js';
import type { CompareCache } from '../../state/compare-cache.js';

type Tab = DetailTab;
const TAB_LABELS: Record<Tab, string> = {
  tree: 'Tree',
  hex: 'Hex',
  text: 'Text',
  bytes: 'Bytes',
  compare: 'Compare',
  crdt: 'CRDT',
  diff: 'Diff',
};

export interface FrameDetailProps {
  readonly client: WorkerClient;
  readonly frame: FrameSummary;
  /** Recent frames, for the diff picker. */
  readonly otherFrames: readonly FrameSummary[];
  readonly theme: 'light' | 'dark';
  /** Tab and view options, kept by the app across frames (default: this frame's own). */
  readonly view?: DetailView;
  readonly onView?: (view: DetailView) => void;
  /** Any held frame's row by id (the Diff picker labels frames older than otherFrames). */
  readonly frameById?: (frameId: number) => FrameSummary | undefined;
  /** Comparison runs kept across tabs and frames. */
  readonly compareCache?: CompareCache;
  /** The list's text filter (the tree search starts with it). */
  readonly searchText?: string;
  /** The paste page's URL, for "link to this frame" (absent: no link). */
  readonly pastePageUrl?: string;
  /** The whole-session comparison's inputs (absent: the Compare tab compares this frame only). */
  readonly session?: SessionSource;
  /** Send again / Deliver to page, where the host can (absent: not shown). */
  readonly pageActions?: PageActionsHost;
  /** An action chosen in the list's context menu for this frame. */
  readonly pageActionRequest?: PageActionRequest;
  /** Why the page actions cannot work on this frame's socket, known without asking (absent: they may try). */
  readonly pageActionsBlocked?: string;
  /** The state of the frame's connection ('open', 'closed', …): a done action's outcome goes when it changes. */
  readonly connectionStatus?: string;
  /** Wirescope itself sent the frame or delivered it to the page (its mark in the header, as in the list). */
  readonly byWirescope?: boolean;
  /** The frame was pasted, neither sent nor received: its header shows no direction. */
  readonly pasted?: boolean;
  /** What intercept rules hold on this frame's connection, with Forward / Drop (absent: not shown). */
  readonly held?: ReactNode;
}

/** A frame in the Diff picker: the same words wherever it is listed. */
const diffLabel = (f: FrameSummary) =>
  `#${f.frameId} ${f.format ?? '?'} ${formatBytes(f.size)} ${f.preview.slice(0, 40)}`;

/** One frame: actions, error banner, and the Tree / Hex / Text / Compare / CRDT / Diff tabs. */
export function FrameDetail(props: FrameDetailProps): ReactElement {
  const { client, frame, otherFrames, theme } = props;
  const frameId = frame.frameId;
  const [format, setFormat] = useState<FormatChoice>('auto');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [ownView, setOwnView] = useState<DetailView>(DEFAULT_DETAIL_VIEW);
  const view = props.view ?? ownView;
  const setView = props.onView ?? setOwnView;
  const chosenTab = view.tab;
  const setTab = (tab: Tab) => setView({ ...view, tab });
  const sortBySize = view.sortBySize;
  const setSortBySize = (on: boolean) => setView({ ...view, sortBySize: on });
  const [scrollTo, setScrollTo] = useState<number | null>(null);
  const [diffWith, setDiffWith] = useState<number | null>(null);
  // A node picked in the Bytes tab's treemap: the tree opens on it, not on the list filter's first match.
  const [pickedInBytes, setPickedInBytes] = useState(false);
  useEffect(() => setPickedInBytes(false), [frameId]);
  const idPrefix = useId();

  useEffect(() => setFormat('auto'), [frameId]);
  const decoding = useWorkerCall(() => client.call('decode', { frameId, format }), [client, frameId, format]);
  const decoded = decoding.status === 'ready' ? decoding.value : null;
  // The frame search's current match: marked in the tree; selected only when the user picked it.
  const [matchId, setMatchId] = useState<number | null>(null);
  // A new decode selects its root; while it loads nothing is selected or scrolled to.
  useEffect(() => {
    setSelectedId(decoded?.root?.id ?? null);
    setMatchId(null);
    if (!decoded) setScrollTo(null);
  }, [decoded]);
  // A compressed frame's hex shows the bytes as captured, or (toggled) the decompressed ones its nodes point into.
  const [showDecompressed, setShowDecompressed] = useState(false);
  useEffect(() => setShowDecompressed(false), [frameId]);
  const bytesCall = useWorkerCall(
    () => client.call('bytes', { frameId, decompressed: showDecompressed }),
    [client, frameId, showDecompressed],
  );
  const bytes = bytesCall.status === 'ready' ? bytesCall.value : null;

  const root = decoded?.root ?? null;
  // What "auto" found, kept while another decoder is forced (the switcher's "auto (…)" names it).
  const [autoDetected, setAutoDetected] = useState<string | null>(null);
  useEffect(() => {
    if (decoded && format === 'auto') setAutoDetected(decoded.format);
  }, [decoded, format]);
  const tree = useTree(client, frameId, format, root, sortBySize);
  const selected: TreeNode | null = selectedId === null ? null : (tree.nodes.get(selectedId) ?? null);

  // Reveals finish in any order (each may wait for windows of children): only the newest
  // one selects, so stepping through search matches never lands on an older match.
  const revealSeq = useRef(0);
  /** The pane: a pick in the Bytes tab puts the keyboard in the tree it opens. */
  const paneRef = useRef<HTMLElement>(null);
  const selectPath = useCallback(
    async (path: readonly number[]) => {
      if (!path.length) return;
      const seq = ++revealSeq.current;
      await tree.reveal(path);
      if (seq === revealSeq.current) setSelectedId(path[path.length - 1]);
    },
    [tree],
  );

  // Matches shown in any order: only the newest one is marked.
  const matchSeq = useRef(0);
  const showMatch = useCallback(
    async (path: readonly number[] | null, pick: boolean) => {
      const seq = ++matchSeq.current;
      if (!path?.length) {
        setMatchId(null);
        return;
      }
      await (pick ? selectPath(path) : tree.reveal(path));
      if (seq === matchSeq.current) setMatchId(path[path.length - 1]);
    },
    [tree, selectPath],
  );

  // A click on a byte selects the deepest node that contains it, opening the tree down to it.
  const onByteClick = useCallback(
    async (offset: number) => {
      const path = await client.call('nodeAt', { frameId, format, offset });
      await selectPath(path);
    },
    [client, frameId, format, selectPath],
  );

  const showByte = (offset: number) => {
    setScrollTo(offset);
    if (tab !== 'tree' && tab !== 'hex') setTab('hex');
  };

  // Diff needs a second frame: with this one alone (the paste page) the tab would offer an empty picker.
  const canDiff = otherFrames.some((f) => f.frameId !== frameId);
  const tabs = useMemo<Tab[]>(
    () => [
      'tree',
      'hex',
      'text',
      'bytes',
      'compare',
      ...(decoded?.isCrdt ? (['crdt'] as Tab[]) : []),
      ...(canDiff ? (['diff'] as Tab[]) : []),
    ],
    [decoded?.isCrdt, canDiff],
  );
  // A tab this frame lacks (CRDT on a plain frame) shows the tree; the choice is kept for the next.
  const tab: Tab = tabs.includes(chosenTab) ? chosenTab : 'tree';
  const compression = decoded?.compression ?? null;
  // Over the compressed bytes only an inflate error has an offset; nodes point into the decompressed ones.
  const hexLinked = !compression || showDecompressed;
  // A compressed frame's inflate error has its offset in the compressed bytes; any other error in the decompressed ones.
  // Bytes no decoder reads ("unknown") have no error to point at: the nearest reading's stop is in
  // the banner, not a red byte in the hex.
  const errorOffset =
    decoded?.verdict === 'unknown'
      ? null
      : !compression
        ? (decoded?.error?.offset ?? null)
        : compression.error
          ? showDecompressed
            ? null
            : compression.error.offset
          : showDecompressed
            ? (decoded?.error?.offset ?? null)
            : null;
  const hexSelection = hexLinked ? selected : null;
  const hexByteClick = (o: number) => void (hexLinked ? onByteClick(o) : undefined);
  const contentSize = compression ? compression.decompressedBytes : frame.size;
  const nodeId = selected?.id ?? root?.id ?? 0;
  // Decoded to no tree at all: the tree pane says why instead of staying blank.
  const noTreeReason =
    !decoded || root
      ? ''
      : decoded.verdict === 'unknown'
        ? 'No tree: no decoder reads these bytes (the banner above names the nearest readings; "decode as" forces one).'
        : decoded.verdict === 'empty'
          ? 'No tree: the frame is empty.'
          : `No tree: ${decoded.error?.message ?? decoded.warnings[0] ?? 'this frame decodes to no value.'}`;

  return (
    <section
      ref={paneRef}
      className="ws-detail-pane"
      aria-label={`Frame ${frameId}`}
      data-testid="frame-detail"
      data-frame-id={frameId}
    >
      <FrameActions
        client={client}
        frameId={frameId}
        format={format}
        detected={autoDetected}
        onFormat={setFormat}
        pastePageUrl={props.pastePageUrl}
        isText={frame.opcode === 'text'}
        direction={
          frame.frameId < 0 || props.pasted
            ? undefined
            : { direction: frame.direction, byWirescope: props.byWirescope === true }
        }
      />
      {props.pageActions && (
        <PageActions
          worker={client}
          frame={frame}
          host={props.pageActions}
          request={props.pageActionRequest}
          blocked={props.pageActionsBlocked}
          connectionStatus={props.connectionStatus}
        />
      )}
      {props.held}
      {decoded?.verdict === 'unknown' ? (
        <UnknownBanner decoded={decoded} onDecodeAs={(f) => setFormat(f as FormatChoice)} />
      ) : (
        decoded?.error && <ErrorBanner error={decoded.error} format={decoded.format} onShowByte={showByte} />
      )}
      {decoding.status === 'error' && (
        <p className="ws-error" role="alert">
          {decoding.error}
        </p>
      )}
      <ProtocolLinks links={decoded?.links} />
      {compression && (
        <CompressionBanner
          compression={compression}
          decompressed={showDecompressed}
          onDecompressed={setShowDecompressed}
        />
      )}
      {decoded?.schemaReading && <SchemaReadingBanner reading={decoded.schemaReading} />}
      {decoded?.warnings.map((w) => (
        <div key={w} className="ws-banner-warning" role="status">
          {w}
        </div>
      ))}
      <TabBar
        tabs={tabs}
        labels={TAB_LABELS}
        selected={tab}
        onSelect={setTab}
        idPrefix={idPrefix}
        label="Frame views"
        trailing={
          <span className="ws-tab-info" data-testid="tab-info">
            {decoded ? (
              <>
                {decoded.verdict === 'empty' ? 'empty frame' : (decoded.format ?? 'unknown format')}
                {decoded.chosenBy ? <span data-testid="chosen-by"> by {decoded.chosenBy}</span> : null} ·{' '}
                <span title={exactBytes(frame.size)} data-testid="tab-size">
                  {formatBytes(frame.size)}
                </span>
                {decoded.candidates.length > 1 ? ` · also reads as ${decoded.candidates.slice(1).join(', ')}` : ''}
              </>
            ) : (
              'decoding…'
            )}
          </span>
        }
      />
      <div className="ws-tabpanel" role="tabpanel" id={panelId(idPrefix, tab)} aria-labelledby={tabId(idPrefix, tab)}>
        {tab === 'tree' && (
          <StructureTab
            client={client}
            frameId={frameId}
            format={format}
            tree={tree}
            bytes={bytes}
            frameSize={contentSize}
            selected={selected}
            hexLinked={hexLinked}
            errorOffset={errorOffset}
            sortBySize={sortBySize}
            onSortBySize={setSortBySize}
            onSelectNode={(n) => setSelectedId(n.id)}
            onSelectPath={(p) => void selectPath(p)}
            onMatch={(p, pick) => void showMatch(p, pick)}
            matchId={matchId}
            onByteClick={hexByteClick}
            showHex
            scrollToOffset={scrollTo}
            searchText={pickedInBytes ? '' : props.searchText}
            onReadAs={(node, reading) => setFormat(withReading(format, node.start, reading))}
            noTree={noTreeReason ? { reason: noTreeReason, onShow: setTab } : null}
          />
        )}
        {tab === 'hex' && (
          <HexTab
            client={client}
            frameId={frameId}
            format={format}
            bytes={bytes}
            hex={{ selection: hexSelection, errorOffset, onByteClick: hexByteClick, scrollToOffset: scrollTo }}
          />
        )}
        {tab === 'text' && decoded && (
          <TextTab
            client={client}
            frameId={frameId}
            format={format}
            rootId={root?.id ?? null}
            selection={selected ? { id: selected.id, path: selected.path } : null}
            reason={decoded.error?.message ?? (root ? '' : (decoded.warnings[0] ?? ''))}
            mode={view.textMode}
            onMode={(textMode) => setView({ ...view, textMode })}
            scope={view.textScope}
            onScope={(textScope) => setView({ ...view, textScope })}
            theme={theme}
          />
        )}
        {tab === 'bytes' && (
          <BytesTab
            client={client}
            frameId={frameId}
            format={format}
            onPickNode={(node) => {
              // The tree and the hex show the pick: the tree's selection drives the hex highlight.
              setPickedInBytes(true);
              setTab('tree');
              void pathOfNode(client, frameId, format, node).then(selectPath);
              // Enter on a rectangle: the keyboard follows to the tree (not left on the tab that closed).
              if (paneRef.current) focusWhenDrawn(paneRef.current, '[data-testid=tree-view]');
            }}
          />
        )}
        {tab === 'compare' && (
          <CompareModes client={client} session={props.session} currentConnectionId={frame.connectionId}>
            <CompareTab
              client={client}
              frameId={frameId}
              format={format}
              nodeId={nodeId}
              nodeLabel={selected && selected.id !== root?.id ? selected.path : ''}
              originalSize={selected ? selected.end - selected.start : frame.size}
              cache={props.compareCache}
            />
          </CompareModes>
        )}
        {tab === 'crdt' && <CrdtTab client={client} frameId={frameId} format={format} />}
        {tab === 'diff' && (
          <DiffTab
            client={client}
            frameA={frameId}
            frameB={diffWith}
            frameOptions={otherFrames
              .filter((f) => f.frameId !== frameId)
              .map((f) => ({ frameId: f.frameId, label: diffLabel(f) }))}
            onPickB={setDiffWith}
            frameLabel={(id) => {
              const f = props.frameById?.(id);
              return f ? diffLabel(f) : null;
            }}
          />
        )}
      </div>
    </section>
  );
}
