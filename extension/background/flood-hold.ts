/**
 * Flow control on the panel ports: under a flood, frames wait in the background, not in the
 * panel. The panel's renderer shares the machine's cores with the page; every millisecond it
 * spends taking in a flood comes out of the page's (on 2 cores the page lost a quarter of its
 * frames with the panel open). The background keeps every tab's frames anyway (TabBuffers),
 * so while a tab floods it stops posting live batches to that tab's panels and posts a small
 * `panel-held` status instead (at most every `statusMs`). What a panel is owed is exactly the
 * tab's items after the last cursor it was sent, so the held batches go out as the backlog
 * path sends them (split by size, in order, with loss accounting), never twice, never skipped:
 * - when the flood calms (the rule no longer holds over `windowMs`; a timer checks `calmMs`
 *   after the last batch),
 * - when the panel asks (`panel-release`, the status bar's "Show now"),
 * - before the held items could be evicted: when the next batch would take what one panel is
 *   owed over `releaseShare` of the tab's byte or event cap (the cap evicts oldest first, so
 *   items held below it are never evicted).
 * A panel that disconnects mid-hold resubscribes with the cursor of what it received and gets
 * the rest from the buffer. Pure: no browser API; main.ts posts and keeps the timer.
 */
import type { PanelBatch, PanelCursor, PanelHeld, PanelMessage, RelayBatch } from '../shared/messages.js';
import { TabBuffers } from './tab-buffers.js';

export interface FloodRule {
  /** Over this many frames, or bytes, taken in within `windowMs` is a flood. */
  readonly frames: number;
  readonly bytes: number;
  readonly windowMs: number;
  /** Without a batch for this long, a flood has calmed (the held items go out). */
  readonly calmMs: number;
  /** At most one `panel-held` status per panel this often. */
  readonly statusMs: number;
  /** Released before what a panel is owed passes this share of the tab's byte or event cap. */
  readonly releaseShare: number;
}

/**
 * 2,000 frames/s (the decode worker's flood rate, flood-deferral.ts) or 32 MiB/s: the hook
 * coalesces to a batch per 100 ms under a flood, so a 250 ms window sees 2 or 3 of them.
 */
export const DEFAULT_FLOOD_RULE: FloodRule = { frames: 500, bytes: 8 * 1024 * 1024, windowMs: 250, calmMs: 300, statusMs: 500, releaseShare: 0.5 };

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
}

interface Arrival {
  readonly time: number;
  readonly frames: number;
  readonly bytes: number;
}

interface TabFlow {
  readonly panels: Map<PanelSink, PanelState>;
  /** Batches taken in within the last `windowMs`, oldest first. */
  arrivals: Arrival[];
  lastBatchAt: number;
  flooding: boolean;
}

export class FloodHold {
  private readonly tabs = new Map<number, TabFlow>();
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
    const state: PanelState = { sent: since, holding: false, lastStatusAt: -Infinity, statusShown: false };
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
    if (state?.holding) this.releasePanel(tabId, sink, state, this.tabs.get(tabId)!.flooding);
  }

  /** A relay batch from a tab: stored in the buffer, then posted live or held per panel. */
  ingest(tabId: number, batch: RelayBatch): void {
    const flow = this.flow(tabId);
    const incoming = TabBuffers.incomingSize(batch);
    const t = this.now();
    // Before it is stored: what a held panel is owed must stay clear of the cap's evictions.
    for (const [sink, state] of flow.panels) if (state.holding && this.wouldPassCap(tabId, state, incoming)) this.releasePanel(tabId, sink, state, true);
    const out = this.buffers.ingest(tabId, batch);
    flow.arrivals.push({ time: t, frames: incoming.frames, bytes: incoming.bytes });
    flow.lastBatchAt = t;
    flow.flooding = this.overRule(flow, t);
    this.forward(tabId, out);
  }

  /**
   * Something to post to the tab's panels that did not come from `ingest` (refused frames
   * reported): held like any item where a panel holds.
   */
  forward(tabId: number, batch: PanelBatch | null): void {
    const flow = this.flow(tabId);
    const t = this.now();
    for (const [sink, state] of flow.panels) {
      if (!flow.flooding && !state.holding) {
        if (batch && sink.post(batch)) state.sent = cursorOf(batch);
        continue;
      }
      if (!flow.flooding) {
        this.releasePanel(tabId, sink, state, false);
        continue;
      }
      state.holding = true;
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
      flow.flooding = this.overRule(flow, t) && t - flow.lastBatchAt < this.rule.calmMs;
      if (!flow.flooding) {
        for (const [sink, state] of flow.panels) if (state.holding) this.releasePanel(tabId, sink, state, false);
        continue;
      }
      const due = Math.max(1, flow.lastBatchAt + this.rule.calmMs - t);
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

  private flow(tabId: number): TabFlow {
    let flow = this.tabs.get(tabId);
    if (!flow) this.tabs.set(tabId, (flow = { panels: new Map(), arrivals: [], lastBatchAt: -Infinity, flooding: false }));
    return flow;
  }

  private overRule(flow: TabFlow, t: number): boolean {
    const since = t - this.rule.windowMs;
    let drop = 0;
    while (drop < flow.arrivals.length && flow.arrivals[drop]!.time <= since) drop++;
    if (drop) flow.arrivals.splice(0, drop);
    let frames = 0;
    let bytes = 0;
    for (const a of flow.arrivals) {
      frames += a.frames;
      bytes += a.bytes;
    }
    return frames > this.rule.frames || bytes > this.rule.bytes;
  }

  private wouldPassCap(tabId: number, state: PanelState, incoming: { bytes: number; events: number }): boolean {
    if (!state.sent) return false;
    const owed = this.buffers.pendingAfter(tabId, state.sent);
    const { maxBytes, maxEvents } = this.buffers.limits;
    return owed.bytes + incoming.bytes > maxBytes * this.rule.releaseShare || owed.events + incoming.events > maxEvents * this.rule.releaseShare;
  }

  /** Posts what the panel is owed; while `stillFlooding` it holds again from there (status updated). */
  private releasePanel(tabId: number, sink: PanelSink, state: PanelState, stillFlooding: boolean): void {
    state.holding = false;
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
    const status: PanelHeld = { type: 'panel-held', frames: owed.frames, bytes: owed.bytes };
    if (sink.post(status)) {
      state.lastStatusAt = t;
      state.statusShown = owed.frames > 0 || owed.bytes > 0;
    }
  }
}

function cursorOf(batch: PanelBatch): PanelCursor {
  return { bufferId: batch.bufferId, cursor: batch.cursor, framesThrough: batch.framesThrough };
}
