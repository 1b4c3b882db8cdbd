/**
 * Flow control on the panel ports: under a flood, frames wait in the background, not in the
 * panel. The panel's renderer shares the machine's cores with the page; every millisecond it
 * spends taking in a flood comes out of the page's (on 2 cores the page lost a quarter of its
 * frames with the panel open). The background keeps every tab's frames anyway (TabBuffers),
 * so while a tab floods it stops posting live batches to that tab's panels and posts a small
 * `panel-held` status instead (at most every `statusMs`). What a panel is owed is exactly the
 * tab's items after the last cursor it was sent, so the held batches go out as the backlog
 * path sends them (split by size, in order, with loss accounting), never twice, never skipped:
 * - when the flood calms (no batch for `calmMs` — longer for a page that stalls mid-flood —,
 *   or the rate fell well under the rule over `calmWindowMs`; a timer checks),
 * - when the panel asks (`panel-release`, the status bar's "Show now"),
 * - before the held items could be evicted: when the next batch would take what one panel is
 *   owed over the tab's byte or event cap (checked before the batch is stored; the cap
 *   evicts oldest first, so items held within it are never evicted).
 * A panel that disconnects mid-hold resubscribes with the cursor of what it received and gets
 * the rest from the buffer.
 * While it holds, each status comes with the live tail (`panel-tail`, tail-sample.ts): the
 * newest frames of each connection among those held, copied out, so the panel shows the
 * stream as it goes; and with the rates (frames/s the tab takes in, put on hold) and what is
 * held per connection. Before held items go out the panel gets an empty tail, so it drops the
 * sampled rows before the frames they sampled arrive: no frame is listed twice.
 * Pure: no browser API; main.ts posts and keeps the timer.
 */
import {
  FRAME_ROW_BYTES,
  type PanelBatch,
  type PanelCursor,
  type PanelHeld,
  type HeldConnection,
  type PanelItem,
  type PanelMessage,
  type RelayBatch,
  type WireBytes,
} from '../shared/messages.js';
import { base64Bytes } from '../../codecs/core/base64.js';
import { TabBuffers } from './tab-buffers.js';
import { countByConnection, sampleTail } from './tail-sample.js';

export interface FloodRule {
  /** Over this many frames, or bytes, taken in within `windowMs` starts a flood. */
  readonly frames: number;
  readonly bytes: number;
  readonly windowMs: number;
  /**
   * A batch of at least this many frames whose own frames came at over the rule's rate (its
   * frame table's first and last times) starts a flood by itself: the first batch of a flood
   * is held too. Each frame let through costs the panel the most (its decoders and list are
   * still cold: ~0.2 s of the panel's CPU for the first ~250 frames in bench:ext).
   */
  readonly burstFrames: number;
  /**
   * A flood goes on until fewer than `calmShare` of that rate arrived over the longer
   * `calmWindowMs`, or no batch came for `calmMs`. The longer window and the lower rate keep a
   * page that is itself starved of CPU (it then takes its frames in bursts) from looking calm
   * between bursts: each false calm would hand the panel a burst to take in mid-flood.
   */
  readonly calmWindowMs: number;
  readonly calmShare: number;
  readonly calmMs: number;
  /**
   * A page short of CPU stalls (no batch for a while) in the middle of its flood: a flood
   * that starts again within `calmWindowMs` of looking calm was not calm, and the tab's gap
   * for calm doubles, up to this; it is back at `calmMs` for a flood that starts after
   * `calmWindowMs` × 10 of quiet.
   */
  readonly maxCalmMs: number;
  /**
   * At most one `panel-held` status (and live tail) per panel this often. Checked when a batch
   * comes (every ~100 ms under a flood), so the tail is refreshed at least every ~500 ms.
   */
  readonly statusMs: number;
  /** The live tail: the newest frames kept of each connection, at most `tailMaxFrames` in all, from the newest `tailItems` held items. */
  readonly tailFrames: number;
  readonly tailMaxFrames: number;
  readonly tailItems: number;
  /** Connections named in a status (the most held first). */
  readonly statusConnections: number;
  /**
   * Released before what a panel is owed plus the next batch would pass this share of the
   * tab's byte or event cap. The check comes before the batch is stored and the cap evicts
   * oldest first, so at 1 no held item is ever evicted; a 3 s flood of 1 KB frames at
   * 10,000/s (28 MiB) then waits whole instead of half of it going out mid-flood.
   */
  readonly releaseShare: number;
}

/**
 * 2,000 frames/s (the decode worker's flood rate, flood-deferral.ts) or 32 MiB/s: the hook
 * coalesces to a batch per 100 ms under a flood, so a 250 ms window sees 2 or 3 of them.
 * Calm: under 1,000 frames/s (and 16 MiB/s) over a second, or no batch for 300 ms (longer for
 * a tab whose flood came back right after such a gap: up to 2.4 s).
 */
export const DEFAULT_FLOOD_RULE: FloodRule = {
  frames: 500,
  bytes: 8 * 1024 * 1024,
  windowMs: 250,
  burstFrames: 100,
  calmWindowMs: 1000,
  calmShare: 0.5,
  calmMs: 300,
  maxCalmMs: 2400,
  statusMs: 400,
  releaseShare: 1,
  tailFrames: 20,
  tailMaxFrames: 400,
  tailItems: 8,
  statusConnections: 64,
};

/** Where held batches go: a panel port (false when it is gone). */
export interface PanelSink {
  post(message: PanelMessage): boolean;
}

interface PanelState {
  /** The cursor after the last item posted (undefined before the first batch). */
  sent: PanelCursor | undefined;
  /** Whether items after `sent` are held (nothing is posted live meanwhile). */
  holding: boolean;
  lastStatusAt: number;
  /** The last status posted said something was held (a release then posts "nothing held"). */
  statusShown: boolean;
  /** The last live tail posted had frames (a release first posts an empty one). */
  tailShown: boolean;
  /** Frames held per connection since the last release. */
  heldBy: Map<string, number>;
  /** Frames put on hold for this panel within the last `calmWindowMs`, oldest first (its held rate). */
  heldLog: { readonly time: number; readonly frames: number }[];
}

interface Arrival {
  readonly time: number;
  readonly frames: number;
  readonly bytes: number;
  /** Frames per connection. */
  readonly byConnection: ReadonlyMap<string, number>;
}

interface TabFlow {
  readonly panels: Map<PanelSink, PanelState>;
  /** Batches taken in within the last `calmWindowMs` (at least `windowMs`), oldest first. */
  arrivals: Arrival[];
  lastBatchAt: number;
  flooding: boolean;
  /** When the current flood started (the rate test for calm needs a whole `calmWindowMs` of it). */
  floodSince: number;
  /** When the last flood was found calm, and the gap without a batch that means calm for this tab now. */
  calmedAt: number;
  calmMs: number;
}

/** Why held items went out (diagnostics: a release during a flood costs the page its CPU). */
export type ReleaseReason = 'calm' | 'rate' | 'request' | 'cap';

export class FloodHold {
  private readonly tabs = new Map<number, TabFlow>();
  /** Releases so far by reason, and the newest few (for tests and diagnostics: test builds expose them). */
  readonly releases: Record<ReleaseReason, number> = { calm: 0, rate: 0, request: 0, cap: 0 };
  readonly recentReleases: { reason: ReleaseReason; frames: number; sinceBatchMs: number }[] = [];
  readonly rule: FloodRule;

  constructor(
    private readonly buffers: TabBuffers,
    private readonly now: () => number,
    rule: Partial<FloodRule> = {},
  ) {
    this.rule = { ...DEFAULT_FLOOD_RULE, ...rule };
  }

  /** A panel subscribed: it gets the backlog after `since` now (held or not), then live items or a hold. */
  subscribe(tabId: number, sink: PanelSink, since?: PanelCursor): void {
    const flow = this.flow(tabId);
    const state: PanelState = {
      sent: since,
      holding: false,
      lastStatusAt: -Infinity,
      statusShown: false,
      tailShown: false,
      heldBy: new Map(),
      heldLog: [],
    };
    if (!this.sendBacklog(tabId, sink, state, since)) return;
    flow.panels.set(sink, state);
  }

  /** A panel port closed. */
  unsubscribe(tabId: number, sink: PanelSink): void {
    const flow = this.tabs.get(tabId);
    flow?.panels.delete(sink);
  }

  /** The panel asked for what is held ("Show now"): it gets it, and the hold goes on if the flood does. */
  release(tabId: number, sink: PanelSink): void {
    const state = this.tabs.get(tabId)?.panels.get(sink);
    if (state?.holding) this.releasePanel(tabId, sink, state, this.tabs.get(tabId)!.flooding, 'request');
  }

  /** A relay batch from a tab: stored in the buffer, then posted live or held per panel. */
  ingest(tabId: number, batch: RelayBatch): void {
    const flow = this.flow(tabId);
    const incoming = TabBuffers.incomingSize(batch);
    const t = this.now();
    // Before it is stored: what a held panel is owed must stay clear of the cap's evictions.
    for (const [sink, state] of flow.panels)
      if (state.holding && this.wouldPassCap(tabId, state, incoming))
        this.releasePanel(tabId, sink, state, true, 'cap');
    const out = this.buffers.ingest(tabId, batch);
    flow.arrivals.push({
      time: t,
      frames: incoming.frames,
      bytes: incoming.bytes,
      byConnection: countByConnection(batch.documentId, batch.frameTable),
    });
    flow.lastBatchAt = t;
    if (!flow.flooding && (this.overRule(flow, t) || this.isBurst(batch, incoming.frames))) this.floodStarts(flow, t);
    else if (flow.flooding && this.calmed(flow, t)) this.floodEnds(flow, t);
    this.forward(tabId, out);
  }

  /**
   * Something to post to the tab's panels that did not come from `ingest` (refused frames
   * reported): held like any item where a panel holds.
   */
  forward(tabId: number, batch: PanelBatch | null): void {
    const flow = this.flow(tabId);
    const t = this.now();
    let counts: Map<string, number> | null = null;
    for (const [sink, state] of flow.panels) {
      if (!flow.flooding && !state.holding) {
        if (batch && sink.post(batch)) state.sent = cursorOf(batch);
        continue;
      }
      if (!flow.flooding) {
        this.releasePanel(tabId, sink, state, false, 'rate');
        continue;
      }
      state.holding = true;
      counts ??= heldCounts(batch?.items ?? []);
      this.hold(state, counts, t);
      // The first held item is said at once (the bar must not read "nothing held"), then at most every statusMs.
      if (!state.statusShown || t - state.lastStatusAt >= this.rule.statusMs) this.postStatus(tabId, sink, state, t);
    }
  }

  /**
   * The timer's turn: tabs whose flood calmed get their held items out. Returns the delay
   * until the next check is due (null: no tab holds).
   */
  tick(): number | null {
    const t = this.now();
    let next: number | null = null;
    for (const [tabId, flow] of this.tabs) {
      if (!flow.flooding) continue;
      if (this.calmed(flow, t)) {
        this.floodEnds(flow, t);
        for (const [sink, state] of flow.panels)
          if (state.holding) this.releasePanel(tabId, sink, state, false, 'calm');
        continue;
      }
      const due = Math.max(1, flow.lastBatchAt + flow.calmMs - t);
      next = next === null ? due : Math.min(next, due);
    }
    return next;
  }

  /** Whether a tab is flooding (its panels hold). */
  isFlooding(tabId: number): boolean {
    return this.tabs.get(tabId)?.flooding ?? false;
  }

  /** The tab closed. */
  removeTab(tabId: number): void {
    this.tabs.delete(tabId);
  }

  /** `counts` (frames per connection) were put on hold for a panel at `t`. */
  private hold(state: PanelState, counts: ReadonlyMap<string, number>, t: number): void {
    let frames = 0;
    for (const [id, n] of counts) {
      state.heldBy.set(id, (state.heldBy.get(id) ?? 0) + n);
      frames += n;
    }
    if (frames) state.heldLog.push({ time: t, frames });
    const keepFrom = t - this.rule.calmWindowMs;
    let drop = 0;
    while (drop < state.heldLog.length && state.heldLog[drop]!.time <= keepFrom) drop++;
    if (drop) state.heldLog.splice(0, drop);
  }

  private flow(tabId: number): TabFlow {
    let flow = this.tabs.get(tabId);
    if (!flow)
      this.tabs.set(
        tabId,
        (flow = {
          panels: new Map(),
          arrivals: [],
          lastBatchAt: -Infinity,
          flooding: false,
          floodSince: -Infinity,
          calmedAt: -Infinity,
          calmMs: this.rule.calmMs,
        }),
      );
    return flow;
  }

  private floodStarts(flow: TabFlow, t: number): void {
    const since = t - flow.calmedAt;
    if (since < this.rule.calmWindowMs) flow.calmMs = Math.min(flow.calmMs * 2, this.rule.maxCalmMs);
    else if (since >= this.rule.calmWindowMs * 10) flow.calmMs = this.rule.calmMs;
    flow.flooding = true;
    flow.floodSince = t;
  }

  private floodEnds(flow: TabFlow, t: number): void {
    flow.flooding = false;
    flow.calmedAt = t;
  }

  /** A batch of `burstFrames` or more that took less time than the rule's rate allows them (frame times from its table). */
  private isBurst(batch: RelayBatch, frames: number): boolean {
    if (frames < this.rule.burstFrames) return false;
    const spanMs = frameTime(batch.frameTable, frames - 1) - frameTime(batch.frameTable, 0);
    return spanMs >= 0 && spanMs * this.rule.frames < frames * this.rule.windowMs;
  }

  /** More than the rule's frames or bytes within `windowMs`: a flood starts. */
  private overRule(flow: TabFlow, t: number): boolean {
    this.forget(flow, t);
    const recent = this.sum(flow, t - this.rule.windowMs);
    return recent.frames > this.rule.frames || recent.bytes > this.rule.bytes;
  }

  /** No batch for `calmMs`, or under `calmShare` of the rule's rate over `calmWindowMs`: a flood ends. */
  private calmed(flow: TabFlow, t: number): boolean {
    if (t - flow.lastBatchAt >= flow.calmMs) return true;
    // The rate test is for a stream that goes on, slower; a pause is the gap test's (a stalled page pauses).
    if (t - flow.floodSince < this.rule.calmWindowMs || t - flow.lastBatchAt > this.rule.calmMs) return false;
    this.forget(flow, t);
    const perWindow = this.rule.calmWindowMs / this.rule.windowMs;
    const recent = this.sum(flow, t - this.rule.calmWindowMs);
    return (
      recent.frames < this.rule.frames * perWindow * this.rule.calmShare &&
      recent.bytes < this.rule.bytes * perWindow * this.rule.calmShare
    );
  }

  private forget(flow: TabFlow, t: number): void {
    const keepFrom = t - Math.max(this.rule.windowMs, this.rule.calmWindowMs);
    let drop = 0;
    while (drop < flow.arrivals.length && flow.arrivals[drop]!.time <= keepFrom) drop++;
    if (drop) flow.arrivals.splice(0, drop);
  }

  private sum(flow: TabFlow, after: number): { frames: number; bytes: number } {
    let frames = 0;
    let bytes = 0;
    for (let i = flow.arrivals.length - 1; i >= 0 && flow.arrivals[i]!.time > after; i--) {
      frames += flow.arrivals[i]!.frames;
      bytes += flow.arrivals[i]!.bytes;
    }
    return { frames, bytes };
  }

  /** Frames/s the tab took in and put on hold for this panel over the last `calmWindowMs`, and per connection. */
  private rates(
    tabId: number,
    state: PanelState,
    t: number,
  ): { arriving: number; heldPerSecond: number; connections: HeldConnection[] } {
    const flow = this.flow(tabId);
    this.forget(flow, t);
    const seconds = this.rule.calmWindowMs / 1000;
    const after = t - this.rule.calmWindowMs;
    let arriving = 0;
    const perConnection = new Map<string, number>();
    for (const a of flow.arrivals) {
      if (a.time <= after) continue;
      arriving += a.frames;
      for (const [id, n] of a.byConnection) perConnection.set(id, (perConnection.get(id) ?? 0) + n);
    }
    let held = 0;
    for (const h of state.heldLog) if (h.time > after) held += h.frames;
    const connections = [...state.heldBy]
      .sort((a, b) => b[1] - a[1])
      .slice(0, this.rule.statusConnections)
      .map(([connectionId, frames]) => ({
        connectionId,
        frames,
        perSecond: Math.round((perConnection.get(connectionId) ?? 0) / seconds),
      }));
    return { arriving: Math.round(arriving / seconds), heldPerSecond: Math.round(held / seconds), connections };
  }

  private wouldPassCap(tabId: number, state: PanelState, incoming: { bytes: number; events: number }): boolean {
    if (!state.sent) return false;
    const owed = this.buffers.pendingAfter(tabId, state.sent);
    const { maxBytes, maxEvents } = this.buffers.limits;
    return (
      owed.bytes + incoming.bytes > maxBytes * this.rule.releaseShare ||
      owed.events + incoming.events > maxEvents * this.rule.releaseShare
    );
  }

  /** Posts what the panel is owed; while `stillFlooding` it holds again from there (status updated). */
  private releasePanel(
    tabId: number,
    sink: PanelSink,
    state: PanelState,
    stillFlooding: boolean,
    reason: ReleaseReason,
  ): void {
    this.releases[reason]++;
    const flow = this.tabs.get(tabId);
    const frames = state.sent ? this.buffers.pendingAfter(tabId, state.sent).frames : 0;
    this.recentReleases.push({ reason, frames, sinceBatchMs: flow ? Math.round(this.now() - flow.lastBatchAt) : -1 });
    if (this.recentReleases.length > 20) this.recentReleases.shift();
    state.holding = false;
    // The sampled rows go before the frames they sampled come.
    if (state.tailShown) {
      if (!sink.post({ type: 'panel-tail', items: [] })) return;
      state.tailShown = false;
    }
    state.heldBy = new Map();
    if (!this.sendBacklog(tabId, sink, state, state.sent)) return;
    state.holding = stillFlooding;
    if (state.statusShown || stillFlooding) this.postStatus(tabId, sink, state, this.now());
  }

  /** Posts the buffer's items after `since`; false when the port is gone (its disconnect removes it). */
  private sendBacklog(tabId: number, sink: PanelSink, state: PanelState, since: PanelCursor | undefined): boolean {
    for (const batch of this.buffers.backlog(tabId, since)) {
      if (!sink.post(batch)) return false;
      state.sent = cursorOf(batch);
    }
    return true;
  }

  private postStatus(tabId: number, sink: PanelSink, state: PanelState, t: number): void {
    const owed = state.holding && state.sent ? this.buffers.pendingAfter(tabId, state.sent) : { frames: 0, bytes: 0 };
    if (state.holding) {
      const { tailFrames, tailMaxFrames, tailItems } = this.rule;
      const items = sampleTail(this.buffers.newestAfter(tabId, state.sent, tailItems), {
        perConnection: tailFrames,
        maxFrames: tailMaxFrames,
      });
      if ((items.length || state.tailShown) && !sink.post({ type: 'panel-tail', items })) return;
      state.tailShown = items.length > 0;
    }
    const status: PanelHeld = state.holding
      ? { type: 'panel-held', frames: owed.frames, bytes: owed.bytes, ...this.rates(tabId, state, t) }
      : { type: 'panel-held', frames: owed.frames, bytes: owed.bytes };
    if (sink.post(status)) {
      state.lastStatusAt = t;
      state.statusShown = owed.frames > 0 || owed.bytes > 0;
    }
  }
}

/** Frames per connection in a panel batch's items (what a held batch adds to a panel's count). */
function heldCounts(items: readonly PanelItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) if (item.type === 'events') countByConnection(item.documentId, item.frameTable, counts);
  return counts;
}

/**
 * The time column of row `row` of a frame table, without decoding the rest (a relay's first
 * batch may be base64: it goes before the relay knows how bytes travel). NaN when unreadable.
 */
function frameTime(table: WireBytes, row: number): number {
  const at = row * FRAME_ROW_BYTES + 2 * 8;
  if ('bytes' in table)
    return at + 8 <= table.bytes.byteLength
      ? new DataView(table.bytes.buffer, table.bytes.byteOffset + at, 8).getFloat64(0, true)
      : NaN;
  const from = Math.floor(at / 3) * 3;
  const to = Math.ceil((at + 8) / 3) * 3;
  const chunk = base64Bytes(table.b64.slice((from / 3) * 4, (to / 3) * 4));
  if (chunk === null || chunk.length < at + 8 - from) return NaN;
  return new DataView(chunk.buffer, chunk.byteOffset + at - from, 8).getFloat64(0, true);
}

function cursorOf(batch: PanelBatch): PanelCursor {
  return { bufferId: batch.bufferId, cursor: batch.cursor, framesThrough: batch.framesThrough };
}
