import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactElement } from 'react';
import type { FormatChoice, FrameDecode, FrameSummary, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useTree } from '../tree/use-tree.js';
import { HexTab } from '../hex/HexTab.js';
import { exactBytes, formatBytes } from '../shell/format.js';
import { panelId, TabBar, tabId } from './TabBar.js';
import { BytesTab } from '../bytes/BytesTab.js';
import { CompareTab } from '../compare/CompareTab.js';
import { CrdtTab } from '../crdt/CrdtTab.js';
import { DiffTab } from '../diff/DiffTab.js';
import { ErrorBanner } from './ErrorBanner.js';
import { UnknownBanner } from './UnknownBanner.js';
import { FrameActions } from './FrameActions.js';
import { StructureTab } from './StructureTab.js';
import { TextTab } from './TextTab.js';

type Tab = 'tree' | 'hex' | 'text' | 'bytes' | 'compare' | 'crdt' | 'diff';
const TAB_LABELS: Record<Tab, string> = { tree: 'Tree', hex: 'Hex', text: 'Text', bytes: 'Bytes', compare: 'Compare', crdt: 'CRDT', diff: 'Diff' };

export interface FrameDetailProps {
  readonly client: WorkerClient;
  readonly frame: FrameSummary;
  /** Recent frames, for the diff picker. */
  readonly otherFrames: readonly FrameSummary[];
  readonly theme: 'light' | 'dark';
  /** The list's text filter (the tree search starts with it). */
  readonly searchText?: string;
  /** The paste page's URL, for "link to this frame" (absent: no link). */
  readonly pastePageUrl?: string;
}

/** One frame: actions, error banner, and the Tree / Hex / Text / Compare / CRDT / Diff tabs. */
export function FrameDetail(props: FrameDetailProps): ReactElement {
  const { client, frame, otherFrames, theme } = props;
  const frameId = frame.frameId;
  const [format, setFormat] = useState<FormatChoice>('auto');
  const [decoded, setDecoded] = useState<FrameDecode | null>(null);
  const [bytes, setBytes] = useState<Uint8Array | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [tab, setTab] = useState<Tab>('tree');
  const [sortBySize, setSortBySize] = useState(false);
  const [scrollTo, setScrollTo] = useState<number | null>(null);
  const [diffWith, setDiffWith] = useState<number | null>(null);
  const idPrefix = useId();

  useEffect(() => setFormat('auto'), [frameId]);
  useEffect(() => {
    let live = true;
    setDecoded(null);
    setSelectedId(null);
    setScrollTo(null);
    void client.call('decode', { frameId, format }).then((d) => {
      if (!live) return;
      setDecoded(d);
      setSelectedId(d?.root?.id ?? null);
    });
    return () => {
      live = false;
    };
  }, [client, frameId, format]);
  useEffect(() => {
    let live = true;
    setBytes(null);
    void client.call('bytes', { frameId }).then((b) => live && setBytes(b));
    return () => {
      live = false;
    };
  }, [client, frameId]);

  const root = decoded?.root ?? null;
  const tree = useTree(client, frameId, format, root, sortBySize);
  const selected: TreeNode | null = selectedId === null ? null : (tree.nodes.get(selectedId) ?? null);

  // Reveals finish in any order (each may wait for windows of children): only the newest
  // one selects, so stepping through search matches never lands on an older match.
  const revealSeq = useRef(0);
  const selectPath = useCallback(
    async (path: readonly number[]) => {
      if (!path.length) return;
      const seq = ++revealSeq.current;
      await tree.reveal(path);
      if (seq === revealSeq.current) setSelectedId(path[path.length - 1]);
    },
    [tree],
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

  const tabs = useMemo<Tab[]>(() => ['tree', 'hex', 'text', 'bytes', 'compare', ...(decoded?.isCrdt ? (['crdt'] as Tab[]) : []), 'diff'], [decoded?.isCrdt]);
  const errorOffset = decoded?.error?.offset ?? null;
  const nodeId = selected?.id ?? root?.id ?? 0;

  return (
    <section className="ws-detail-pane" aria-label={`Frame ${frameId}`} data-testid="frame-detail" data-frame-id={frameId}>
      <FrameActions client={client} frameId={frameId} format={format} detected={decoded?.format ?? null} onFormat={setFormat} pastePageUrl={props.pastePageUrl} />
      {decoded?.verdict === 'unknown' ? (
        <UnknownBanner decoded={decoded} onDecodeAs={(f) => setFormat(f as FormatChoice)} />
      ) : (
        decoded?.error && <ErrorBanner error={decoded.error} format={decoded.format} onShowByte={showByte} />
      )}
      {decoded?.warnings.map((w) => (
        <div key={w} className="ws-banner-error" style={{ background: 'var(--ws-warn-bg)' }} role="status">
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
                {decoded.verdict === 'empty' ? 'empty frame' : (decoded.format ?? 'unknown format')} · <span title={exactBytes(frame.size)} data-testid="tab-size">{formatBytes(frame.size)}</span>
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
            frameSize={frame.size}
            selected={selected}
            errorOffset={errorOffset}
            sortBySize={sortBySize}
            onSortBySize={setSortBySize}
            onSelectNode={(n) => setSelectedId(n.id)}
            onSelectPath={(p) => void selectPath(p)}
            onByteClick={(o) => void onByteClick(o)}
            showHex
            scrollToOffset={scrollTo}
            searchText={props.searchText}
          />
        )}
        {tab === 'hex' && <HexTab client={client} frameId={frameId} format={format} bytes={bytes} hex={{ selection: selected, errorOffset, onByteClick: (o) => void onByteClick(o), scrollToOffset: scrollTo }} />}
        {tab === 'text' && root && <TextTab client={client} frameId={frameId} format={format} nodeId={nodeId} theme={theme} />}
        {tab === 'bytes' && <BytesTab client={client} frameId={frameId} format={format} />}
        {tab === 'compare' && <CompareTab client={client} frameId={frameId} format={format} nodeId={nodeId} nodeLabel={selected && selected.id !== root?.id ? selected.path : ''} originalSize={selected ? selected.end - selected.start : frame.size} />}
        {tab === 'crdt' && <CrdtTab client={client} frameId={frameId} format={format} />}
        {tab === 'diff' && (
          <DiffTab
            client={client}
            frameA={frameId}
            frameB={diffWith}
            frameOptions={otherFrames.filter((f) => f.frameId !== frameId).map((f) => ({ frameId: f.frameId, label: `#${f.frameId} ${f.format ?? '?'} ${f.size} B ${f.preview.slice(0, 40)}` }))}
            onPickB={setDiffWith}
          />
        )}
      </div>
    </section>
  );
}
