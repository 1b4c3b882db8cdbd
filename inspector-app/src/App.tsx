import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type ReactElement,
} from 'react';
import type { HostCapabilities, Transport } from './protocol/transport.js';
import { InspectorSession } from './state/session.js';
import { importCaptureFile } from './state/import-file.js';
import type { WorkerClient } from './worker/client.js';
import type { FrameSummary } from './worker/api.js';
import type { InterceptRuleSpec } from './protocol/messages.js';
import { DEFAULT_CAP_BYTES } from './worker/frame-store.js';
import { FrameList } from './components/list/FrameList.js';
import { onOpenFrame } from './components/tree/open-frame.js';
import { FilterBar } from './components/list/FilterBar.js';
import { NoMatches } from './components/list/NoMatches.js';
import { EmptyState } from './components/list/EmptyState.js';
import { NO_FILTERS } from './state/capture-model.js';
import { DEFAULT_DETAIL_VIEW, type DetailView } from './state/detail-view.js';
import { CompareCache } from './state/compare-cache.js';
import { FrameDetail } from './components/detail/FrameDetail.js';
import { pageActionBlocked } from './components/detail/page-action-blocked.js';
import { SessionRun } from './components/compare/session/session-run.js';
import type { SessionSource } from './components/compare/session/SessionCompare.js';
import { Toolbar } from './components/shell/Toolbar.js';
import { SchemasPanel } from './components/schema/SchemasPanel.js';
import { defaultSchemaStorage, type SchemaStorage } from './components/schema/schema-storage.js';
import { StatusBar } from './components/shell/StatusBar.js';
import { useTheme } from './components/shell/use-theme.js';
import { MainLayout } from './components/shell/MainLayout.js';
import { closesDetail } from './components/shell/escape.js';
import { focusWhenDrawn, skipKeyOf, type SkipKey } from './components/shell/shortcuts.js';
import { HelpOverlay } from './components/shell/HelpOverlay.js';
import { ConnectBar } from './components/connect/ConnectBar.js';
import { NewMessage } from './components/compose/NewMessage.js';
import { EditorFoldContext, useEditorFoldState } from './components/compose/editor-fold.js';
import { saveBytes } from './components/detail/clipboard.js';
import { FrameMenu, type PageActionRequest } from './components/detail/FrameMenu.js';
import { usePageActions } from './components/detail/use-page-actions.js';
import { HeldFrames } from './components/detail/HeldFrames.js';
import type { FrameActionClient } from './state/frame-action-client.js';
import {
  activeRules,
  connectionsByFormat,
  InterceptRules,
  type EditableRule,
} from './components/intercept/InterceptRules.js';
import { plural } from './components/shell/format.js';
import './components/shell/app.css';

export interface AppProps {
  /** Where loaded .proto files are kept (default: localStorage). */
  readonly schemaStorage?: SchemaStorage;
  readonly transport: Transport;
  readonly capabilities: HostCapabilities;
  /** The decode worker (tests pass one running in-process). */
  readonly worker: WorkerClient;
  /** Standalone inspector: URL to connect to at start (`?connect=`). */
  readonly connectUrl?: string;
  /** Select this frame once it arrives (the paste page shows its one frame). */
  readonly autoSelectFirst?: boolean;
  /** Hide the list (paste page: one frame, detail only, pasted: no direction). */
  readonly singleFrame?: boolean;
  /** The demo server's URL on the page's own host (the URL field's default). */
  readonly demoUrl?: string;
}

/**
 * The inspector: frame list on the left, the selected frame on the right. Fed only by its
 * Transport and capabilities; decoding happens in the worker.
 */
export function App(props: AppProps): ReactElement {
  const { transport, capabilities, worker } = props;
  const session = useMemo(
    () => new InspectorSession(transport, worker, { keepOnNavigate: capabilities.keepOnNavigate }),
    [transport, worker, capabilities.keepOnNavigate],
  );
  // Building the session is pure; listening to the host and the worker starts here (and stops on unmount).
  useEffect(() => session.start(), [session]);
  const snapshot = useSyncExternalStore(session.model.subscribe, session.model.getSnapshot);
  const pageActions = usePageActions(transport, capabilities.frameActions);
  /** Intercept rules (hosts with `intercept`), kept while the panel is open; the host gets the enabled ones. */
  const [interceptRules, setInterceptRules] = useState<EditableRule[]>([]);
  /** Connections per format and framing protocol the list showed (format rules), grown with each new row. */
  const formatSeen = useRef({ lastFrameId: -1, version: 0, map: new Map<string, string[]>() });
  const formatConnections = useMemo(() => {
    const seen = formatSeen.current;
    if (!capabilities.intercept) return seen.map;
    const fresh: FrameSummary[] = [];
    for (let i = snapshot.rows.length - 1; i >= 0 && snapshot.rows[i]!.frameId > seen.lastFrameId; i--)
      fresh.push(snapshot.rows[i]!);
    if (fresh.length === 0) return seen.map;
    seen.lastFrameId = fresh[0]!.frameId;
    const merged = new Map([...seen.map].map(([k, v]) => [k, new Set(v)]));
    let changed = false;
    for (const [k, ids] of connectionsByFormat(fresh)) {
      let set = merged.get(k);
      if (!set) merged.set(k, (set = new Set()));
      for (const id of ids) if (!set.has(id)) set.add(id), (changed = true);
    }
    if (changed) seen.map = new Map([...merged].map(([k, v]) => [k, [...v].sort()]));
    return seen.map;
  }, [snapshot.rows, snapshot.rows.length, capabilities.intercept]);
  // The enabled rules go to the host whenever they (or a format rule's connections) change.
  const ruleKey = JSON.stringify(activeRules(interceptRules, formatConnections));
  const sentRules = useRef('[]');
  useEffect(() => {
    if (!capabilities.intercept || ruleKey === sentRules.current) return;
    sentRules.current = ruleKey;
    transport.send({ type: 'set-intercept-rules', rules: JSON.parse(ruleKey) as InterceptRuleSpec[] });
  }, [ruleKey, transport, capabilities.intercept]);
  /** The list's context menu (hosts with actions on the page), and the action last chosen in it. */
  const [rowMenu, setRowMenu] = useState<{ frameId: number; x: number; y: number } | null>(null);
  const [menuRequest, setMenuRequest] = useState<(PageActionRequest & { frameId: number }) | null>(null);
  const openRowMenu = useCallback((frameId: number, x: number, y: number) => setRowMenu({ frameId, x, y }), []);
  const closeRowMenu = useCallback(() => setRowMenu(null), []);
  const theme = useTheme(capabilities.theme);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  /** The frame whose detail Escape closed last: the list's arrow keys go on from it. */
  const [closedId, setClosedId] = useState<number | null>(null);
  const [capMb, setCapMb] = useState(DEFAULT_CAP_BYTES / 1024 / 1024);
  const [keepOnNavigate, setKeepOnNavigate] = useState(capabilities.keepOnNavigate ?? true);
  const [notice, setNotice] = useState('');
  const [composerOpen, setComposerOpen] = useState(false);
  const editorFold = useEditorFoldState();
  const [detailView, setDetailView] = useState<DetailView>(DEFAULT_DETAIL_VIEW);
  // A tree row linked to another frame (a Socket.IO attachment) opens it.
  useEffect(() => onOpenFrame(document, setSelectedId), []);
  const compareCache = useMemo(() => new CompareCache(), [session]);
  // Comparison results live until their frame is evicted (or cleared).
  useEffect(
    () => compareCache.retainFrames((frameId) => session.model.frame(frameId) !== undefined),
    [compareCache, session, snapshot.rows],
  );
  const demoUrl = props.demoUrl ?? 'ws://localhost:8080/demo';
  const [schemaStorage] = useState(() => props.schemaStorage ?? defaultSchemaStorage());
  // Bumped when the Protobuf schemas or a connection's type change: the open frame decodes again.
  const [schemaVersion, setSchemaVersion] = useState(0);
  const urlRef = useRef<HTMLInputElement>(null);
  /** Bumped by "Clear filters" so the filter bar's own text boxes start empty. */
  const [filterBarKey, setFilterBarKey] = useState(0);
  const [listBySize, setListBySize] = useState(false);
  const appRef = useRef<HTMLDivElement>(null);

  // Once per transport and URL: StrictMode runs effects twice in development, and each run would open a socket.
  const connectedTo = useRef<{ readonly transport: Transport; readonly url: string } | null>(null);
  useEffect(() => {
    const url = props.connectUrl;
    if (!url || !capabilities.connect) return;
    if (connectedTo.current?.transport === transport && connectedTo.current.url === url) return;
    connectedTo.current = { transport, url };
    transport.send({ type: 'connect', url, protocols: [] });
  }, [props.connectUrl, capabilities.connect, transport]);

  useEffect(() => {
    if (props.autoSelectFirst && selectedId === null && snapshot.rows.length) setSelectedId(snapshot.rows[0].frameId);
  }, [props.autoSelectFirst, selectedId, snapshot.rows]);

  // Short labels (#1, #2, …) in the order connections appeared; files register theirs too.
  const connectionLabels = useMemo(() => {
    const m = new Map<string, string>();
    let n = 1;
    for (const id of snapshot.connections.keys()) m.set(id, `#${n++}`);
    return m;
  }, [snapshot.connections]);

  // The whole-session comparison: one run per capture, its inputs from the snapshot.
  const sessionRun = useMemo(() => new SessionRun(), [session]);
  const filtersSet = JSON.stringify(snapshot.filters) !== JSON.stringify(NO_FILTERS);
  const sessionSource = useMemo(
    (): SessionSource => ({
      run: sessionRun,
      connections: [...snapshot.connections.values()].map((c) => ({
        connectionId: c.connectionId,
        label: connectionLabels.get(c.connectionId) ?? c.connectionId,
        url: c.url,
        ...(c.extensions !== undefined ? { extensions: c.extensions } : {}),
      })),
      filteredIds: filtersSet ? snapshot.visible.map((r) => r.frameId) : null,
      heldFrames: snapshot.rows.length,
      // What the list holds and shows: frames that arrived while paused are not compared.
      shown: snapshot.rows,
    }),
    [
      sessionRun,
      snapshot.connections,
      snapshot.visible,
      snapshot.rows,
      snapshot.rows.length,
      filtersSet,
      connectionLabels,
    ],
  );

  const selected = selectedId === null ? undefined : session.model.frame(selectedId);
  // Rows in view that wait to be read (a flood) are read at once: the rows on screen are complete.
  const readRowsInView = useCallback((frameIds: readonly number[]) => session.worker.view(frameIds), [session]);
  // Under a flood the host's live tail (a sample of the frames it holds) follows the frames.
  const listRows = useMemo(() => {
    const rows = snapshot.tail.length ? snapshot.visible.concat(snapshot.tail) : snapshot.visible;
    return listBySize ? [...rows].sort((a, b) => b.size - a.size || a.frameId - b.frameId) : rows;
  }, [snapshot.visible, snapshot.tail, listBySize]);

  const liveConnectionCount = useMemo(
    () => [...snapshot.connections.values()].filter((c) => c.status === 'opening' || c.status === 'open').length,
    [snapshot.connections],
  );

  // Escape closes the detail pane (not while typing, nor inside the Monaco editor) and
  // gives the keyboard back to the list.
  const [helpOpen, setHelpOpen] = useState(false);
  /** A skip key: the view it names, with the keyboard in it. False when there is nothing to go to. */
  const skipTo = (skip: SkipKey): boolean => {
    const app = appRef.current;
    if (!app) return false;
    if (skip === 'help') setHelpOpen(true);
    else if (skip === 'filter') focusWhenDrawn(app, '[data-testid=filter-input]', 0);
    else if (skip === 'list') focusWhenDrawn(app, '[data-testid=frame-list]', 0);
    else if (selectedId === null) return false;
    else if (skip === 'tree') {
      setDetailView({ ...detailView, tab: 'tree' });
      focusWhenDrawn(app, '[data-testid=tree-view]');
    } else if (skip === 'hex' && detailView.tab === 'tree' && app.querySelector('.ws-hex-pane')) {
      focusWhenDrawn(app, '.ws-hex-pane .hex-scroll');
    } else if (skip === 'hex') {
      setDetailView({ ...detailView, tab: 'hex' });
      focusWhenDrawn(app, '[role=tabpanel] .hex-scroll');
    } else {
      setDetailView({ ...detailView, tab: skip });
      focusWhenDrawn(app, `[data-testid=frame-detail] [data-testid=tab-${skip}][aria-selected=true]`);
    }
    return true;
  };

  // With nothing focused (the page just loaded, a click on bare background) keys go to the
  // body, outside the app's own handler: the skip keys answer there too.
  const skipToRef = useRef(skipTo);
  skipToRef.current = skipTo;
  useEffect(() => {
    const onBodyKey = (e: globalThis.KeyboardEvent) => {
      if (e.target !== document.body && e.target !== document.documentElement) return;
      const skip = skipKeyOf(e);
      if (skip && skipToRef.current(skip)) e.preventDefault();
    };
    document.addEventListener('keydown', onBodyKey);
    return () => document.removeEventListener('keydown', onBodyKey);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const skip = skipKeyOf(e);
    if (skip) {
      if (skipTo(skip)) e.preventDefault();
      return;
    }
    if (props.singleFrame || selectedId === null || !closesDetail(e)) return;
    e.preventDefault();
    setClosedId(selectedId);
    setSelectedId(null);
    appRef.current?.querySelector<HTMLElement>('[data-testid=frame-list]')?.focus();
  };

  const onImport = useCallback(
    async (file: File) => {
      const result = importCaptureFile(new Uint8Array(await file.arrayBuffer()));
      if ('error' in result) return setNotice(`${file.name}: ${result.error}`);
      for (const c of result.connections) session.importConnection(c);
      session.ingest(result.frames);
      setNotice(
        `${file.name}: ${plural(result.frames.length, 'frame')} from ${plural(result.connections.length, 'connection')}${result.errors.length ? `; ${plural(result.errors.length, 'problem')}: ${result.errors.slice(0, 3).join('; ')}` : ''}`,
      );
    },
    [session],
  );

  const onExport = useCallback(
    async (kind: 'har' | 'wirescope') => {
      const bytes = await worker.call('exportCapture', {
        kind,
        connections: session.model.connectionInfo(),
        wirescopeFrames: session.model.wirescopeIds(),
      });
      saveBytes(bytes, kind === 'har' ? 'wirescope-capture.har' : 'capture.wirescope');
    },
    [worker, session],
  );

  return (
    <EditorFoldContext.Provider value={editorFold}>
      {/* The page's one landmark (toolbars, list and detail are all the app); the paste page, which holds the app, is its own. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the app's keys (Escape closes the detail) are heard here as they bubble from the controls inside */}
      <div
        className="ws-app"
        data-theme={theme}
        data-testid="app"
        ref={appRef}
        onKeyDown={onKeyDown}
        role={props.singleFrame ? undefined : 'main'}
      >
        {!props.singleFrame && <h1 className="ws-visually-hidden">wirescope WebSocket inspector</h1>}
        {capabilities.connect && (
          <ConnectBar
            initialUrl={props.connectUrl ?? demoUrl}
            connections={snapshot.connections}
            problem={snapshot.connectProblem}
            urlRef={urlRef}
            onConnect={(url, protocols) => transport.send({ type: 'connect', url, protocols })}
            onClose={(connectionId) =>
              transport.send({ type: 'disconnect', connectionId, code: 1000, reason: 'closed in wirescope' })
            }
            composerOpen={composerOpen}
            onToggleComposer={() => setComposerOpen((o) => !o)}
          />
        )}
        {!props.singleFrame && (
          <Toolbar
            paused={snapshot.paused}
            pausedBacklog={snapshot.pausedBacklog}
            capMb={capMb}
            files={capabilities.files}
            frameCount={snapshot.rows.length + snapshot.pausedBacklog}
            connectionCount={snapshot.connections.size}
            liveConnectionCount={liveConnectionCount}
            onPause={(p) => session.model.setPaused(p)}
            onClear={() => {
              setSelectedId(null);
              sessionRun.reset();
              void session.clear();
            }}
            onCap={(mb) => {
              setCapMb(mb);
              void session.setCap(mb * 1024 * 1024);
            }}
            onImport={(f) => void onImport(f)}
            onExport={(k) => void onExport(k)}
            keepOnNavigate={capabilities.hostName === 'panel' ? keepOnNavigate : undefined}
            onKeepOnNavigate={
              capabilities.hostName === 'panel'
                ? (keep) => {
                    setKeepOnNavigate(keep);
                    session.keepOnNavigate = keep;
                  }
                : undefined
            }
            extra={
              <>
                {!capabilities.connect && pageActions?.kinds.includes('send') && (
                  <button
                    type="button"
                    aria-expanded={composerOpen}
                    data-testid="new-message-toggle"
                    title="Compose a frame and send it on any open socket of the page"
                    onClick={() =>
                      // Folded behind Edit and send: the button brings it back instead of closing it.
                      composerOpen && editorFold.front === 'edit-and-send'
                        ? editorFold.bringToFront('new-message')
                        : setComposerOpen((o) => !o)
                    }
                  >
                    New message
                  </button>
                )}
                {capabilities.intercept && (
                  <InterceptRules
                    rules={interceptRules}
                    onChange={setInterceptRules}
                    formats={[...formatConnections.keys()].sort()}
                    connections={[...snapshot.connections.keys()].map((id) => ({
                      id,
                      label: `${connectionLabels.get(id) ?? id} ${snapshot.connections.get(id)?.url ?? ''}`.trim(),
                    }))}
                    held={[...snapshot.holds.values()].reduce(
                      (n, h) => n + (h.sent?.held ?? 0) + (h.received?.held ?? 0),
                      0,
                    )}
                  />
                )}
                <SchemasPanel
                  client={worker}
                  storage={schemaStorage}
                  connections={[...snapshot.connections.keys()].map((id) => ({
                    id,
                    label: `${connectionLabels.get(id) ?? id} ${snapshot.connections.get(id)?.url ?? ''}`.trim(),
                  }))}
                  onChanged={() => setSchemaVersion((v) => v + 1)}
                  reread={snapshot.reread}
                />
              </>
            }
            debuggerCaptureOn={
              snapshot.debuggerCapture?.state === 'on' || snapshot.debuggerCapture?.state === 'starting'
            }
            onDebuggerCapture={
              capabilities.debuggerCapture ? (on) => transport.send({ type: 'set-debugger-capture', on }) : undefined
            }
          />
        )}
        {composerOpen && pageActions?.kinds.includes('send') && (
          <NewMessage
            worker={worker}
            host={pageActions}
            connections={snapshot.connections}
            rows={snapshot.rows}
            labels={connectionLabels}
            title={capabilities.connect ? 'Compose' : 'New message'}
            actionsAllowed={snapshot.pageActionsAllowed}
            noSocket={
              capabilities.connect
                ? "Connect first: Compose sends on the inspector's own connections."
                : 'No socket yet: a message needs a socket the page has open.'
            }
            onClose={() => setComposerOpen(false)}
          />
        )}
        {notice && (
          <div className="ws-toolbar" role="status" data-testid="notice">
            {notice}
            <button type="button" title="Dismiss" onClick={() => setNotice('')}>
              Dismiss
            </button>
          </div>
        )}
        <MainLayout
          list={
            props.singleFrame ? null : (
              <>
                <FilterBar
                  key={filterBarKey}
                  filters={session.model.currentFilters()}
                  search={snapshot.search}
                  connections={snapshot.connections}
                  connectionLabels={connectionLabels}
                  onChange={(f) => session.setFilters(f)}
                />
                <FrameList
                  rows={listRows}
                  selectedId={selectedId}
                  anchorId={closedId}
                  isWirescope={(id) => session.model.isWirescope(id)}
                  interceptMark={capabilities.intercept ? (id) => session.model.interceptMark(id) : undefined}
                  onRowMenu={pageActions ? openRowMenu : undefined}
                  onSelect={setSelectedId}
                  connectionLabels={connectionLabels}
                  sortBySize={listBySize}
                  onSortBySize={setListBySize}
                  onView={readRowsInView}
                  empty={
                    snapshot.rows.length === 0 ? (
                      <EmptyState
                        panel={capabilities.hostName === 'panel'}
                        proxyAddress={capabilities.proxyAddress}
                        onFocusUrl={capabilities.connect ? () => urlRef.current?.focus() : undefined}
                        onConnectDemo={
                          capabilities.connect
                            ? () => transport.send({ type: 'connect', url: demoUrl, protocols: [] })
                            : undefined
                        }
                        demoUrl={demoUrl}
                        onImport={
                          capabilities.files
                            ? () => document.querySelector<HTMLInputElement>('[data-testid=import-input]')?.click()
                            : undefined
                        }
                      />
                    ) : (
                      <NoMatches
                        searching={snapshot.search !== null && !snapshot.search.done}
                        onClear={() => {
                          session.setFilters(NO_FILTERS);
                          setFilterBarKey((k) => k + 1);
                        }}
                      />
                    )
                  }
                />
              </>
            )
          }
          detail={
            selected ? (
              <FrameDetail
                key={`${selected.frameId}:${schemaVersion}`}
                client={worker}
                frame={selected}
                otherFrames={snapshot.rows.slice(-200)}
                theme={theme}
                searchText={snapshot.filters.text}
                pastePageUrl={capabilities.pastePageUrl}
                view={detailView}
                onView={setDetailView}
                compareCache={compareCache}
                session={props.singleFrame ? undefined : sessionSource}
                frameById={(id) => session.model.frame(id)}
                byWirescope={session.model.isWirescope(selected.frameId)}
                pasted={props.singleFrame}
                pageActions={pageActions}
                pageActionRequest={menuRequest?.frameId === selected.frameId ? menuRequest : undefined}
                pageActionsBlocked={pageActionBlocked(
                  snapshot.connections.get(selected.connectionId),
                  snapshot.pageActionsAllowed,
                )}
                connectionStatus={snapshot.connections.get(selected.connectionId)?.status}
                held={
                  capabilities.intercept && pageActions?.client.hold ? (
                    <HeldFrames
                      worker={worker}
                      frame={selected}
                      holds={snapshot.holds.get(selected.connectionId)}
                      client={pageActions.client as Pick<FrameActionClient, 'hold'>}
                      headFrameId={(direction, seq) => session.model.heldFrameId(selected.connectionId, direction, seq)}
                      onSelect={setSelectedId}
                    />
                  ) : undefined
                }
              />
            ) : selectedId !== null && session.model.wasEvicted(selectedId) ? (
              <div className="ws-empty" role="status" data-testid="frame-evicted">
                Frame #{selectedId} was evicted by the memory cap: its bytes are no longer held.
              </div>
            ) : props.singleFrame ? (
              <div className="ws-empty">Paste or drop a frame above.</div>
            ) : null
          }
        />
        {helpOpen && (
          <HelpOverlay
            onClose={() => setHelpOpen(false)}
            focusAfter={() => appRef.current?.querySelector<HTMLElement>('[data-testid=frame-list]')?.focus()}
          />
        )}
        {rowMenu && pageActions && (
          <FrameMenu
            x={rowMenu.x}
            y={rowMenu.y}
            kinds={pageActions.kinds}
            onChoose={(action) =>
              setMenuRequest((last) => ({ frameId: rowMenu.frameId, action, seq: (last?.seq ?? 0) + 1 }))
            }
            onClose={closeRowMenu}
          />
        )}
        {!props.singleFrame && (
          <StatusBar
            snapshot={snapshot}
            hostName={capabilities.hostName}
            capBytes={capMb * 1024 * 1024}
            onShowHeld={() => transport.send({ type: 'show-held' })}
          />
        )}
      </div>
    </EditorFoldContext.Provider>
  );
}
