import type { HeldConnection, HoldState, HostMessage } from '../protocol/messages.js';
import type { FrameSummary } from '../worker/api.js';
import type { FilterProgress, RereadBatch, SummaryBatch, TailRows } from '../worker/client.js';

export type ConnectionStatus = 'opening' | 'open' | 'closed' | 'error' | 'imported';

/** A connection's detail once the page that opened it navigated away or reloaded. */
export const PAGE_LEFT = 'page left';

export interface ConnectionState {
  readonly connectionId: string;
  readonly url: string;
  readonly protocol: string;
  readonly status: ConnectionStatus;
  readonly detail: string;
  /** The document (frame URL, and origin when it says more) that opened it, when the host knows. */
  readonly document?: string;
  /** The negotiated Sec-WebSocket-Extensions, when the host or file recorded it ('' = none negotiated; absent = not known). */
  readonly extensions?: string;
  /** The host began seeing it only then, after it opened: frames before were not seen. */
  readonly seenFrom?: number;
}

/** Something the host saw open sockets where it cannot capture them (e.g. a worker). */
export interface UncapturedNotice {
  readonly kind: string;
  readonly url: string;
  readonly documentUrl: string;
  readonly reason: string;
}

export interface ListFilters {
  readonly direction: 'all' | 'sent' | 'received';
  /** 'all', a format name, 'error' for malformed frames, 'unknown' or 'empty'. */
  readonly format: string;
  readonly connection: string;
  /** 'all', a framing protocol name (socket.io, mqtt, …) or 'none' for frames without one. */
  readonly protocol: string;
  /** Part of the event / topic column (case-insensitive), or ''. */
  readonly event: string;
  /** Hide the protocols' keep-alives (ping / pong, heartbeats). */
  readonly hideQuiet: boolean;
  /** Free text and path go to the worker (they need decoded values). */
  readonly text: string;
  readonly path: string;
}

export const NO_FILTERS: ListFilters = {
  direction: 'all',
  format: 'all',
  connection: 'all',
  protocol: 'all',
  event: '',
  hideQuiet: false,
  text: '',
  path: '',
};

/** A text / path search in the worker: how far it is (the list fills in as it goes). */
export interface SearchState {
  readonly generation: number;
  readonly searched: number;
  readonly total: number;
  readonly done: boolean;
}

/** Listed rows being read again after a schema change: how far (null: none since the start). */
export interface RereadState {
  readonly searched: number;
  readonly total: number;
  readonly done: boolean;
}

export interface HostHeld {
  readonly frames: number;
  readonly bytes: number;
  readonly arriving?: number;
  readonly heldPerSecond?: number;
  readonly connections?: readonly HeldConnection[];
}

/** A connection's held frames, per direction (hosts with `intercept`). */
export interface ConnectionHolds {
  readonly sent?: HoldState;
  readonly received?: HoldState;
}

export interface CaptureSnapshot {
  readonly rows: readonly FrameSummary[];
  readonly visible: readonly FrameSummary[];
  readonly connections: ReadonlyMap<string, ConnectionState>;
  readonly filters: ListFilters;
  readonly paused: boolean;
  /** Frames captured while paused, shown on resume. */
  readonly pausedBacklog: number;
  readonly evictedTotal: number;
  readonly droppedByHost: number;
  readonly dropReasons: readonly string[];
  /** Host notices of sockets out of its reach (bounded to the first MAX_UNCAPTURED). */
  readonly uncaptured: readonly UncapturedNotice[];
  /** The host's debugger capture mode, once it reported one. */
  readonly debuggerCapture: { readonly state: 'off' | 'starting' | 'on' | 'error'; readonly message: string } | null;
  /**
   * Frames (and bytes) the host holds for the app under a flood, with the rates it measured
   * (frames/s arriving and put on hold) and per connection; null when none.
   */
  readonly hostHeld: HostHeld | null;
  /** Frames intercept rules hold, per connection and direction (the latest state the host reported). */
  readonly holds: ReadonlyMap<string, ConnectionHolds>;
  /**
   * The live tail under a flood (rows marked `sample`, the host's newest held frames) that
   * pass the filters: listed after `visible`, counted in neither `rows` nor `visible`.
   */
  readonly tail: readonly FrameSummary[];
  /** Rows listed per second over the last second (frames and live tail rows; not while paused). */
  readonly shownPerSecond: number;
  readonly bytesHeld: number;
  /** The running or finished content search, null without a text / path filter. */
  readonly search: SearchState | null;
  /** Why the newest connect attempt failed (shown next to the URL), or null. */
  readonly connectProblem: string | null;
  /** The re-read of listed rows after the newest schema change, or null. */
  readonly reread: RereadState | null;
  /** Rows listed but not read yet (the worker defers reading under a flood): the status says the list is catching up. */
  readonly waitingRows: number;
  /** False while the host says actions on the page are turned off (its options); true until it says so. */
  readonly pageActionsAllowed: boolean;
  readonly version: number;
}

/**
 * The main thread's view of the capture: list rows (summaries from the worker), connection
 * states, filters and counters. Listeners are told at most once per animation frame, so a
 * 10,000 frames/s stream re-renders the list ~60 times a second, not 10,000.
 */
/** Uncaptured notices kept (a page starting workers in a loop must not grow the list without end). */
const MAX_UNCAPTURED = 100;

/** "frame URL (origin O)", the origin only when the URL does not show it (about:blank, srcdoc, sandboxed). */
export function documentLabel(url: string | undefined, origin: string | undefined): string {
  if (!url) return origin ? `origin ${origin}` : '';
  if (!origin) return url;
  let shown = '';
  try {
    shown = new URL(url).origin;
  } catch {
    /* not a URL: show the origin */
  }
  return shown === origin ? url : `${url} (origin ${origin})`;
}

export class CaptureModel {
  /** Frames wirescope itself sent or delivered to the page (marked in the list, kept by exports). */
  private readonly wirescopeFrames = new Set<number>();
  /** Frames intercept rules took: their held number (from 1), 0 for dropped. */
  private readonly interceptMarks = new Map<number, number>();
  private readonly heldCounts = new Map<string, number>();
  private readonly heldFrameIds = new Map<string, number>();
  private rows: FrameSummary[] = [];
  private visible: FrameSummary[] = [];
  /**
   * Whether the last snapshot holds `rows` / `visible`: they are copied before the next change
   * (at most once per redraw), and changed in place until the next snapshot. Copying per
   * worker batch made reading a flood's rows quadratic in the list's length.
   */
  private rowsShared = true;
  private visibleShared = true;
  private backlog: FrameSummary[] = [];
  /** Changed in place; the snapshot gets a copy, made at most once per notification (connectionsCopy). */
  private connections = new Map<string, ConnectionState>();
  private connectionsCopy: ReadonlyMap<string, ConnectionState> = new Map();
  private connectionsDirty = false;
  private pageActionsAllowed = true;
  private filters: ListFilters = NO_FILTERS;
  /** Frame ids matching the worker-side text/path filter, or null when none is set. */
  private contentMatches: Set<number> | null = null;
  private search: SearchState | null = null;
  private reread: RereadState | null = null;
  private rereadGeneration = -1;
  /** Re-read rows not yet put into `rows` / `backlog`: applied once per snapshot, not once per worker slice. */
  private pendingRereads = new Map<number, FrameSummary>();
  private connectProblem: string | null = null;
  /** Connections that reached "open" (a close before that is a failed connect). */
  private opened = new Set<string>();
  /** `visible` is recomputed when the next snapshot is made (search slices arrive ~80 times a second). */
  private visibleStale = false;
  private paused = false;
  private evictedTotal = 0;
  private droppedByHost = 0;
  private dropReasons: string[] = [];
  private uncaptured: UncapturedNotice[] = [];
  private debuggerCapture: CaptureSnapshot['debuggerCapture'] = null;
  private hostHeld: CaptureSnapshot['hostHeld'] = null;
  private holds = new Map<string, ConnectionHolds>();
  /** The live tail listed, and the newest one that came while paused (listed on resume). */
  private tail: FrameSummary[] = [];
  private pausedTail: FrameSummary[] | null = null;
  /** Rows listed, by when (the last second's: the shown rate). */
  private shownLog: { readonly time: number; readonly rows: number }[] = [];
  private bytesHeld = 0;
  /** The highest frame id evicted so far (ids grow, evictions go oldest first). */
  private newestEvicted = 0;
  private version = 0;
  private snapshot: CaptureSnapshot;
  /** Frames by id, for the selected frame's row (the list can hold hundreds of thousands). */
  private byId = new Map<number, FrameSummary>();
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  /** Rows listed as waiting (not read yet) and not replaced by their read row. */
  private waitingRows = 0;
  /** Rows that arrived since the last redraw: many mean a flood, redrawn at most every FLOOD_INTERVAL_MS. */
  private rowsSinceNotify = 0;

  constructor(
    private readonly schedule: (run: () => void) => void = defaultSchedule,
    private readonly clock: ModelClock = REAL_CLOCK,
  ) {
    this.snapshot = this.makeSnapshot();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): CaptureSnapshot => this.snapshot;

  private makeSnapshot(): CaptureSnapshot {
    if (this.connectionsDirty) {
      this.connectionsCopy = new Map(this.connections);
      this.connectionsDirty = false;
    }
    if (this.visibleStale) this.refilter();
    this.rowsShared = true;
    this.visibleShared = true;
    return {
      rows: this.rows,
      visible: this.visible,
      connections: this.connectionsCopy,
      filters: this.filters,
      paused: this.paused,
      pausedBacklog: this.backlog.length,
      evictedTotal: this.evictedTotal,
      droppedByHost: this.droppedByHost,
      dropReasons: this.dropReasons,
      uncaptured: this.uncaptured,
      debuggerCapture: this.debuggerCapture,
      hostHeld: this.hostHeld,
      holds: this.holds,
      tail: this.shownTail(),
      shownPerSecond: this.shownPerSecond(),
      bytesHeld: this.bytesHeld,
      search: this.search,
      connectProblem: this.connectProblem,
      reread: this.reread,
      waitingRows: this.waitingRows,
      pageActionsAllowed: this.pageActionsAllowed,
      version: this.version,
    };
  }

  private lastNotify = 0;

  /** `urgent`: draw at the next animation frame even in a large list (a search's first matches). */
  private changed(urgent = false): void {
    this.version++;
    if (this.scheduled) return;
    this.scheduled = true;
    // The virtualized list re-measures all rows when their count changes: beyond
    // LARGE_LIST rows, redraw at most every LARGE_LIST_INTERVAL_MS (still live to the eye).
    // The same for many connections: each notification copies their map once.
    // Under a flood of rows (a stream at thousands of frames/s) less often still: a redraw costs about
    // the same however many rows came, so fewer redraws leave the main thread to the rest.
    // A flood waits longest: each redraw's layout and paint take CPU the flooded page needs
    // (the panel shares the machine's cores with it).
    const flood = this.rowsSinceNotify >= FLOOD_ROWS;
    const large = flood || this.rows.length > LARGE_LIST || this.connections.size > LARGE_CONNECTIONS;
    const interval = flood ? FLOOD_INTERVAL_MS : LARGE_LIST_INTERVAL_MS;
    const wait = large && !urgent ? interval - (this.clock.now() - this.lastNotify) : 0;
    const run = () =>
      this.schedule(() => {
        this.scheduled = false;
        this.rowsSinceNotify = 0;
        this.lastNotify = this.clock.now();
        this.snapshot = this.makeSnapshot();
        for (const l of this.listeners) l();
      });
    if (wait > 0) this.clock.later(run, wait);
    else run();
  }

  private passes(row: FrameSummary): boolean {
    const f = this.filters;
    if (f.direction !== 'all' && row.direction !== f.direction) return false;
    if (f.format !== 'all' && !matchesFormat(row, f.format)) return false;
    if (f.connection !== 'all' && row.connectionId !== f.connection) return false;
    if (!matchesProtocol(row, f)) return false;
    if (this.contentMatches && !this.contentMatches.has(row.frameId)) return false;
    return true;
  }

  private refilter(): void {
    if (this.pendingRereads.size) this.applyPendingRereads();
    this.visibleStale = false;
    this.visible = this.rows.filter((r) => this.passes(r));
    this.visibleShared = false;
  }

  /**
   * A live tail from the worker: it replaces the listed one (while paused it waits for the
   * resume, the listed one stays). Its rows are known by id (a selected one keeps its detail)
   * until the worker lets go of them (`forgotten`).
   */
  applyTail(batch: TailRows): void {
    for (const id of batch.forgotten) {
      this.byId.delete(id);
      this.contentMatches?.delete(id);
    }
    for (const r of batch.rows) this.byId.set(r.frameId, r);
    if (batch.matching && this.contentMatches && this.search && batch.filterGeneration === this.search.generation)
      for (const id of batch.matching) this.contentMatches.add(id);
    if (this.paused) this.pausedTail = [...batch.rows];
    else this.showTail([...batch.rows]);
    this.changed();
  }

  /** The listed tail rows that pass the filters (the same array while nothing filters, so the list is not redrawn for it). */
  private shownTail(): readonly FrameSummary[] {
    const f = this.filters;
    const filtering =
      this.contentMatches !== null ||
      f.direction !== 'all' ||
      f.format !== 'all' ||
      f.connection !== 'all' ||
      f.protocol !== 'all' ||
      f.event !== '' ||
      f.hideQuiet;
    return filtering && this.tail.length ? this.tail.filter((r) => this.passes(r)) : this.tail;
  }

  private showTail(rows: FrameSummary[]): void {
    this.tail = rows;
    this.countShown(rows.length);
  }

  private countShown(rows: number): void {
    if (!rows) return;
    const t = this.clock.now();
    this.shownLog.push({ time: t, rows });
    let drop = 0;
    while (drop < this.shownLog.length && this.shownLog[drop]!.time <= t - 1000) drop++;
    if (drop) this.shownLog.splice(0, drop);
  }

  private shownPerSecond(): number {
    const after = this.clock.now() - 1000;
    let rows = 0;
    for (const s of this.shownLog) if (s.time > after) rows += s.rows;
    return rows;
  }

  /** A batch of list rows from the worker. */
  applySummaries(batch: SummaryBatch): void {
    // Matches computed under an older filter are not this filter's: its search covers those frames.
    if (batch.matching && this.contentMatches && this.search && batch.filterGeneration === this.search.generation)
      for (const id of batch.matching) this.contentMatches.add(id);
    this.removeEvicted(batch.evictedIds, batch.evictedTotal, batch.bytesHeld);
    const fresh: FrameSummary[] = [];
    const replacements: FrameSummary[] = [];
    for (const r of batch.summaries) {
      const before = this.byId.get(r.frameId);
      // The read row of a frame listed as waiting (a flood), or a row read ahead of its turn and read again in order.
      if (before) {
        if (before.waiting && !r.waiting) this.waitingRows--;
        this.byId.set(r.frameId, r);
        replacements.push(r);
        continue;
      }
      if (r.waiting) this.waitingRows++;
      fresh.push(r);
      this.byId.set(r.frameId, r);
      // A frame from a connection whose opening was never seen (captured mid-stream, or the
      // event was lost): the connection still gets a name and a row in the filter.
      if (!this.connections.has(r.connectionId)) {
        this.connections.set(r.connectionId, {
          connectionId: r.connectionId,
          url: '',
          protocol: '',
          status: 'open',
          detail: 'its opening was not captured',
        });
        this.connectionsDirty = true;
      }
    }
    if (replacements.length) this.replaceRows(replacements);
    if (this.paused) this.backlog.push(...fresh);
    else this.append(fresh);
    // Rows read after a flood come as fast as its rows did: redrawn no more often.
    this.rowsSinceNotify += fresh.length + replacements.length;
    this.changed();
  }

  /**
   * A slice of rows read again after a schema change: they replace their rows where those are
   * still listed (an evicted frame's row stays gone), and the filters apply to them anew.
   */
  applyReread(batch: RereadBatch): void {
    // Slices of a superseded run that were already on their way say nothing about the new schema.
    if (batch.generation < this.rereadGeneration) return;
    this.rereadGeneration = batch.generation;
    this.reread = { searched: batch.searched, total: batch.total, done: batch.done };
    const matching =
      batch.matching && this.contentMatches && this.search && batch.filterGeneration === this.search.generation
        ? new Set(batch.matching)
        : null;
    let updated = false;
    for (const r of batch.rows) {
      if (!this.byId.has(r.frameId)) continue;
      this.byId.set(r.frameId, r);
      this.pendingRereads.set(r.frameId, r);
      updated = true;
      if (matching) {
        if (matching.has(r.frameId)) this.contentMatches!.add(r.frameId);
        else this.contentMatches!.delete(r.frameId);
      }
    }
    // The new format / protocol may take a row in or out of the filters: recomputed with the next snapshot.
    if (updated) this.visibleStale = true;
    this.changed();
  }

  /** Puts the re-read rows in place (a pass over the list per snapshot, however many slices came). */
  private applyPendingRereads(): void {
    const updates = this.pendingRereads;
    this.pendingRereads = new Map();
    const replace = (r: FrameSummary) => updates.get(r.frameId) ?? r;
    this.rows = this.rows.map(replace);
    this.rowsShared = false;
    if (this.backlog.length) this.backlog = this.backlog.map(replace);
  }

  /**
   * Rows read after they were listed take their place, in every list (ids ascend in each).
   * Filters on what a row says (format, protocol, event) are applied again to them.
   */
  private replaceRows(replacements: readonly FrameSummary[]): void {
    // A row read now is newer than a re-read of it still waiting for the next snapshot.
    if (this.pendingRereads.size) for (const r of replacements) this.pendingRereads.delete(r.frameId);
    // In place, in a copy made first when the last snapshot holds the list (a new array, so the list redraws).
    const replaceIn = (list: FrameSummary[], shared: boolean): FrameSummary[] => {
      let out = list;
      for (const r of replacements) {
        const at = indexOfFrame(out, r.frameId);
        if (at < 0) continue;
        if (shared && out === list) out = list.slice();
        out[at] = r;
      }
      return out;
    };
    const rows = replaceIn(this.rows, this.rowsShared);
    if (rows !== this.rows) [this.rows, this.rowsShared] = [rows, false];
    this.backlog = replaceIn(this.backlog, false);
    const f = this.filters;
    const byContent = f.format !== 'all' || f.protocol !== 'all' || f.event !== '' || f.hideQuiet;
    if (byContent) this.visibleStale = true;
    else if (!this.visibleStale) {
      const visible = replaceIn(this.visible, this.visibleShared);
      if (visible !== this.visible) [this.visible, this.visibleShared] = [visible, false];
    }
  }

  /** Frames the worker no longer holds (evicted by the cap) leave every list; counters follow. */
  private removeEvicted(ids: readonly number[], evictedTotal: number, bytesHeld: number): void {
    this.evictedTotal = evictedTotal;
    this.bytesHeld = bytesHeld;
    if (!ids.length) return;
    const gone = new Set(ids);
    // Evictions are the oldest frames: they sit at the front of both lists.
    this.rows = this.rows.filter((r) => !gone.has(r.frameId));
    this.rowsShared = false;
    for (const id of gone) {
      if (this.byId.get(id)?.waiting) this.waitingRows--;
      this.byId.delete(id);
      if (id > this.newestEvicted) this.newestEvicted = id;
    }
    this.visible = this.visible.filter((r) => !gone.has(r.frameId));
    this.visibleShared = false;
    this.backlog = this.backlog.filter((r) => !gone.has(r.frameId));
    if (this.contentMatches) for (const id of ids) this.contentMatches.delete(id);
  }

  /** The answer to lowering the cap: evicted rows go now, not with the next frame batch. */
  applyEvictions(ids: readonly number[], evictedTotal: number, bytesHeld: number): void {
    this.removeEvicted(ids, evictedTotal, bytesHeld);
    this.changed();
  }

  /** True for a frame the cap evicted (ids only grow and evictions go oldest first; a live tail's ids are negative). */
  wasEvicted(frameId: number): boolean {
    return frameId > 0 && frameId <= this.newestEvicted && !this.byId.has(frameId);
  }

  private append(summaries: readonly FrameSummary[]): void {
    if (!summaries.length) return;
    this.countShown(summaries.length);
    // A new array when the last snapshot holds the list (React sees a change), else in place.
    if (this.rowsShared) [this.rows, this.rowsShared] = [this.rows.concat(summaries), false];
    else for (const r of summaries) this.rows.push(r);
    if (this.visibleStale) return;
    const passing = summaries.filter((r) => this.passes(r));
    if (!passing.length) return;
    if (this.visibleShared) [this.visible, this.visibleShared] = [this.visible.concat(passing), false];
    else for (const r of passing) this.visible.push(r);
  }

  /**
   * A frame an intercept rule held (numbered per connection and direction from 1, as the
   * host numbers held frames: Forward names the first by that number) or dropped.
   */
  markIntercepted(frameId: number, connectionId: string, direction: 'sent' | 'received', held: boolean): void {
    if (!held) {
      this.interceptMarks.set(frameId, 0);
      return;
    }
    const key = `${connectionId}\n${direction}`;
    const seq = (this.heldCounts.get(key) ?? 0) + 1;
    this.heldCounts.set(key, seq);
    this.interceptMarks.set(frameId, seq);
    this.heldFrameIds.set(`${key}\n${seq}`, frameId);
  }

  /** 'held' or 'dropped' for a frame an intercept rule took, else undefined. */
  interceptMark(frameId: number): 'held' | 'dropped' | undefined {
    const seq = this.interceptMarks.get(frameId);
    return seq === undefined ? undefined : seq > 0 ? 'held' : 'dropped';
  }

  /** The frame id of held frame `seq` of a connection and direction, when it is listed. */
  heldFrameId(connectionId: string, direction: 'sent' | 'received', seq: number): number | undefined {
    return this.heldFrameIds.get(`${connectionId}\n${direction}\n${seq}`);
  }

  /** Connection and drop messages from the host (frames go to the worker instead). */
  markWirescope(frameId: number): void {
    this.wirescopeFrames.add(frameId);
  }

  /** True for a frame wirescope sent or delivered. */
  isWirescope(frameId: number): boolean {
    return this.wirescopeFrames.has(frameId);
  }

  /** The ids of the frames wirescope sent or delivered (for exports). */
  wirescopeIds(): number[] {
    return [...this.wirescopeFrames];
  }

  applyHostMessage(message: HostMessage): void {
    switch (message.type) {
      case 'connection-opening': {
        this.connectProblem = null;
        const document = documentLabel(message.documentUrl, message.documentOrigin);
        // Seen only after it opened (a late debugger attach): open already, and its frames before then missed.
        const late = typeof message.seenFrom === 'number' ? { seenFrom: message.seenFrom } : {};
        this.setConnection({
          connectionId: message.connectionId,
          url: message.url,
          protocol: '',
          status: late.seenFrom === undefined ? 'opening' : 'open',
          detail: '',
          ...(document ? { document } : {}),
          ...late,
        });
        break;
      }
      case 'debugger-capture':
        this.debuggerCapture = { state: message.state, message: message.message };
        this.changed();
        break;
      case 'hold-state': {
        const holds = new Map(this.holds);
        holds.set(message.connectionId, { ...holds.get(message.connectionId), [message.direction]: message });
        this.holds = holds;
        this.changed();
        break;
      }
      case 'held': {
        const { type: _type, ...held } = message;
        this.hostHeld = message.frames > 0 || message.bytes > 0 ? held : null;
        this.changed();
        break;
      }
      case 'uncaptured':
        if (this.uncaptured.length < MAX_UNCAPTURED) {
          this.uncaptured = [
            ...this.uncaptured,
            { kind: message.kind, url: message.url, documentUrl: message.documentUrl ?? '', reason: message.reason },
          ];
          this.changed();
        }
        break;
      case 'connection-opened':
        this.opened.add(message.connectionId);
        this.connectProblem = null;
        this.setConnection({
          ...this.documentOf(message.connectionId),
          connectionId: message.connectionId,
          url: message.url,
          protocol: message.protocol,
          status: 'open',
          detail: message.extensions,
          extensions: message.extensions,
        });
        break;
      case 'connection-closed': {
        const c = this.connections.get(message.connectionId);
        if (!c) break;
        const detail = `code ${message.code}${message.reason ? ` ${message.reason}` : ''}${message.wasClean ? '' : ' (not clean)'}`;
        if (!this.opened.has(message.connectionId))
          this.connectProblem = `Could not connect to ${c.url}: it closed before opening (${detail}). Is the server running, and is the URL right?`;
        this.setConnection({
          ...this.documentOf(message.connectionId),
          connectionId: message.connectionId,
          url: c.url,
          protocol: c.protocol,
          status: 'closed',
          detail,
          ...(c.extensions !== undefined ? { extensions: c.extensions } : {}),
        });
        break;
      }
      case 'connection-error': {
        const c = this.connections.get(message.connectionId);
        if (!c) {
          // Refused before it began (a bad URL): no connection to list, only the reason to show.
          this.connectProblem = message.message;
          this.changed();
          break;
        }
        if (!this.opened.has(message.connectionId))
          this.connectProblem = `Could not connect to ${c.url}: ${message.message}`;
        this.setConnection({
          ...this.documentOf(message.connectionId),
          connectionId: message.connectionId,
          url: c.url,
          protocol: c.protocol,
          status: 'error',
          detail: message.message,
          ...(c.extensions !== undefined ? { extensions: c.extensions } : {}),
        });
        break;
      }
      case 'navigated':
        this.pageLeft(message.stay);
        break;
      case 'page-actions':
        this.pageActionsAllowed = message.allowed;
        this.changed();
        break;
      case 'dropped':
        this.droppedByHost += message.count;
        if (!this.dropReasons.includes(message.reason)) this.dropReasons = [...this.dropReasons, message.reason];
        this.changed();
        break;
      default:
        break;
    }
  }

  /** The `document` a connection already has, to carry into its next state. */
  /** What a connection keeps through its later events: the document that opened it, and from when it was seen. */
  private documentOf(connectionId: string): { document?: string; seenFrom?: number } {
    const c = this.connections.get(connectionId);
    return {
      ...(c?.document ? { document: c.document } : {}),
      ...(c?.seenFrom !== undefined ? { seenFrom: c.seenFrom } : {}),
    };
  }

  /**
   * The inspected page's top frame has a new document: the sockets seen before it belonged to
   * the documents that went (the top one and its frames), so those still open or opening are
   * closed now, but those in `stay`: the new page's frames can report before its top document.
   */
  private pageLeft(stay: readonly string[] = []): void {
    let any = false;
    const kept = new Set(stay);
    for (const [id, c] of this.connections) {
      if ((c.status !== 'open' && c.status !== 'opening') || kept.has(id)) continue;
      this.connections.set(id, { ...c, status: 'closed', detail: PAGE_LEFT });
      any = true;
    }
    if (!any) return;
    this.connectionsDirty = true;
    this.changed();
  }

  private setConnection(state: ConnectionState): void {
    // In place: copying the map per event made a flood of connection events quadratic (a hang at 300,000).
    this.connections.set(state.connectionId, state);
    this.connectionsDirty = true;
    this.changed();
  }

  /** A connection read from a file: shown, never offered a Close button. */
  addImportedConnection(info: {
    connectionId: string;
    url: string;
    protocol: string;
    extensions?: string;
    extensionsRecorded?: boolean;
  }): void {
    // A file's '' means "not recorded" as often as "none negotiated": only a header counts as known.
    this.setConnection({
      connectionId: info.connectionId,
      url: info.url,
      protocol: info.protocol,
      status: 'imported',
      detail: 'from a file',
      ...(info.extensions || info.extensionsRecorded ? { extensions: info.extensions ?? '' } : {}),
    });
  }

  /** Known connections (for export): id → URL and subprotocol. */
  connectionInfo(): Record<string, { url: string; protocol: string; extensions?: string }> {
    const out: Record<string, { url: string; protocol: string; extensions?: string }> = {};
    for (const [id, c] of this.connections)
      out[id] = {
        url: c.url,
        protocol: c.protocol,
        ...(c.extensions !== undefined ? { extensions: c.extensions } : {}),
      };
    return out;
  }

  frame(frameId: number): FrameSummary | undefined {
    return this.byId.get(frameId);
  }

  /** The newest filters, including changes not yet drawn. */
  currentFilters(): ListFilters {
    return this.filters;
  }

  /**
   * New filters, applied at once. `search`: a generation starts a content search (matches
   * stream in through applySearchProgress), null drops the content filter, undefined keeps it.
   */
  setListFilters(filters: ListFilters, search?: number | null): void {
    this.filters = filters;
    if (search === null) {
      this.contentMatches = null;
      this.search = null;
    } else if (search !== undefined) {
      this.contentMatches = new Set();
      this.search = { generation: search, searched: 0, total: this.rows.length + this.backlog.length, done: false };
    }
    this.refilter();
    this.changed();
  }

  /** A slice of the content search; slices of a superseded search are ignored. */
  applySearchProgress(progress: FilterProgress): void {
    if (!this.search || !this.contentMatches || progress.generation !== this.search.generation) return;
    const firstMatches = this.contentMatches.size === 0 && progress.matches.length > 0;
    for (const id of progress.matches) this.contentMatches.add(id);
    this.search = {
      generation: progress.generation,
      searched: progress.searched,
      total: progress.total,
      done: progress.done,
    };
    if (progress.matches.length) this.visibleStale = true;
    this.changed(firstMatches || progress.done);
  }

  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (!paused && this.backlog.length) {
      this.append(this.backlog);
      this.backlog = [];
    }
    if (!paused && this.pausedTail) {
      this.showTail(this.pausedTail);
      this.pausedTail = null;
    }
    this.changed();
  }

  clear(): void {
    this.wirescopeFrames.clear();
    this.holds = new Map();
    this.interceptMarks.clear();
    this.heldFrameIds.clear(); // the counts stay: the host keeps numbering
    this.byId.clear();
    this.reread = null;
    this.pendingRereads.clear();
    this.waitingRows = 0;
    this.rows = [];
    this.visible = [];
    [this.rowsShared, this.visibleShared] = [false, false];
    this.backlog = [];
    this.tail = [];
    this.pausedTail = null;
    this.changed();
  }
}

/** Where the row of `frameId` is in a list sorted by frame id, or -1. */
function indexOfFrame(list: readonly FrameSummary[], frameId: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = list[mid]!.frameId;
    if (id === frameId) return mid;
    if (id < frameId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The list's format filter: a format name, or one of the verdicts (malformed = 'error'). */
export function matchesFormat(row: FrameSummary, filter: string): boolean {
  const verdict = row.verdict ?? (row.error ? 'malformed' : 'decoded');
  if (filter === 'error') return verdict === 'malformed';
  if (filter === 'unknown' || filter === 'empty') return verdict === filter;
  return row.format === filter;
}

/** The protocol, event / topic and keep-alive filters (the list's protocol columns). */
export function matchesProtocol(row: FrameSummary, f: Pick<ListFilters, 'protocol' | 'event' | 'hideQuiet'>): boolean {
  const p = row.protocol;
  if (f.hideQuiet && p?.quiet) return false;
  if (f.protocol !== 'all' && (f.protocol === 'none' ? p !== undefined : p?.name !== f.protocol)) return false;
  if (f.event) {
    const needle = f.event.toLowerCase();
    if (!p || ![p.event, p.message].some((s) => s?.toLowerCase().includes(needle))) return false;
  }
  return true;
}

const LARGE_LIST = 20_000;
const LARGE_CONNECTIONS = 2_000;
const LARGE_LIST_INTERVAL_MS = 100;
/**
 * Under a flood of rows: 2 redraws a second, still live to the eye. Each redraw (React, the
 * list's layout, paint, raster) is CPU the flooded page needs on a small machine: at 250 ms
 * the panel's redraws were the larger part of its renderer's time while a 10,000 frames/s
 * stream lasted (bench:ext). The status bar's counts come from the same snapshot.
 */
export const FLOOD_INTERVAL_MS = 500;
/** Rows between two redraws from which the stream counts as a flood (~3,000 frames/s at 60 redraws/s). */
const FLOOD_ROWS = 50;

/** The model's time: `now` for redraw intervals, `later` to redraw after one (tests pass their own). */
export interface ModelClock {
  now(): number;
  later(run: () => void, ms: number): void;
}

const REAL_CLOCK: ModelClock = {
  now: () => (typeof performance !== 'undefined' ? performance.now() : Date.now()),
  later: (run, ms) => void setTimeout(run, ms),
};

function defaultSchedule(run: () => void): void {
  if (
    typeof requestAnimationFrame === 'function' &&
    typeof document !== 'undefined' &&
    document.visibilityState === 'visible'
  )
    requestAnimationFrame(run);
  else setTimeout(run, 16);
}
