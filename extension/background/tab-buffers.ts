/**
 * The background's memory: per tab, a bounded buffer of what the relays sent, so a panel
 * opened late still gets the frames captured before it. Pure logic (no browser API), driven
 * by main.ts. Every loss is reported, never silent:
 * - the tab's cap (frame bytes, tables and socket events, all counted) evicts the oldest
 *   items' frame bytes first: what is left (`evicted` items: socket events and frame rows)
 *   lets a panel show the connections whole and a placeholder row per frame; when those
 *   husks pass their own cap they go too, and a panel that missed them gets a `dropped`
 *   item with the exact frame count;
 * - a global cap across tabs sheds from the tab holding the most, so one tab (a hostile
 *   page) cannot take the memory every other tab's capture lives in;
 * - strings in socket events are capped (event-strings.ts), so no event is large;
 * - a relay batch whose `seq` does not follow the last one seen for its document yields a
 *   `gap` item. A document never seen with `seq > 1` means this background did not see its
 *   start: the extension restarted (Chrome stops idle MV3 service workers and their memory
 *   with them). The panel, which knows which batches it already has, turns gaps into counts.
 * - a top-frame batch from a document that was never this tab's top document is a navigation.
 */
import { wireByteLength, wireFrameCount } from '../shared/frame-table.js';
import type { BatchEvent, PanelBatch, PanelCursor, PanelItem, RelayBatch } from '../shared/messages.js';
import { capEvent, capString, eventCost, EVENT_OVERHEAD_BYTES } from './event-strings.js';

export { wireByteLength };

export const RESTART_REASON = 'extension restarted; frames before this point were lost';
export const TRANSIT_REASON = 'relay batches were lost on the way to the extension';

export interface BufferLimits {
  /** Bytes kept whole per tab: frame bytes, frame tables and socket events (strings counted). */
  readonly maxBytes: number;
  /** Events (frames, connection events, markers) kept whole per tab. */
  readonly maxEvents: number;
  /** Bytes of evicted items' husks (socket events and frame rows, no frame bytes) kept per tab. */
  readonly maxHuskBytes: number;
  /** Bytes kept across all tabs (whole items and husks); over it, the tab holding most sheds. */
  readonly maxTotalBytes: number;
  /** Documents per tab whose `seq` is remembered (least recently seen forgotten first). */
  readonly maxDocuments: number;
  /** Bytes (frame bytes, tables, events) per backlog message (Chrome refuses runtime messages over 64 MiB). */
  readonly maxBatchBytes: number;
  /** Events (frames and socket events) per backlog message, so each is bounded work for the panel. */
  readonly maxBatchEvents: number;
}

export const DEFAULT_LIMITS: BufferLimits = {
  maxBytes: 32 * 1024 * 1024,
  maxEvents: 50_000,
  maxHuskBytes: 2 * 1024 * 1024,
  maxTotalBytes: 160 * 1024 * 1024,
  maxDocuments: 1024,
  maxBatchBytes: 4 * 1024 * 1024,
  maxBatchEvents: 5_000,
};

export function bufferFullReason(limits: BufferLimits): string {
  const mb = Math.round(limits.maxBytes / (1024 * 1024));
  return `the extension's buffer for this tab was full (${mb} MiB or ${limits.maxEvents.toLocaleString('en-US')} events); the oldest frames were dropped`;
}

export function evictedReason(limits: BufferLimits): string {
  const mb = Math.round(limits.maxBytes / (1024 * 1024));
  return `evicted by the extension's buffer for this tab (${mb} MiB or ${limits.maxEvents.toLocaleString('en-US')} events) before the panel opened`;
}

/** Characters kept of a document URL (it names navigations). */
const MAX_URL = 4096;

interface Stored {
  readonly cursor: number;
  /** The item, or its husk once evicted. */
  item: PanelItem;
  readonly frames: number;
  /** What the item holds now: frame bytes, table and events (what the caps count and a backlog message carries). */
  size: number;
  /** Frames and events (what `maxEvents` counts; 0 once a husk). */
  events: number;
  /** Frames the tab's buffer took in before this item. */
  readonly framesBefore: number;
  /** Bytes (`size` as stored) and events the tab's buffer took in before this item (what a held panel is owed: flood-hold.ts). */
  readonly sizeBefore: number;
  readonly eventsBefore: number;
}

interface DocState {
  seq: number;
  lostBatches: number;
  lostHookFrames: number;
  droppedFrames: number;
  wasTop: boolean;
  /** The document's navigation start, when its relay says (ms since the epoch). */
  start?: number;
}

class TabBuffer {
  /** Husks items[head … whole - 1], then whole items items[whole …]. */
  readonly items: Stored[] = [];
  head = 0;
  whole = 0;
  nextCursor = 1;
  framesTotal = 0;
  /** Sizes and events of every item taken in (as stored), cumulative. */
  sizeTotal = 0;
  eventsTotal = 0;
  /** Size of the whole items. */
  bytes = 0;
  events = 0;
  huskBytes = 0;
  readonly docs = new Map<string, DocState>();
  hadTop = false;
  /** Frames refused by the capture options and not yet reported, and why. */
  refusedFrames = 0;
  refusedReason = '';

  get size(): number {
    return this.items.length - this.head;
  }

  get held(): number {
    return this.bytes + this.huskBytes;
  }

  /** Frames taken in before the oldest item still held (= all frames dropped without a husk). */
  framesAtHead(): number {
    return this.size ? this.items[this.head]!.framesBefore : this.framesTotal;
  }

  headCursor(): number {
    return this.size ? this.items[this.head]!.cursor : this.nextCursor;
  }
}

const eventsCost = (events: readonly BatchEvent[]): number => events.reduce((n, e) => n + eventCost(e), 0);

/** Frames (table rows), bytes held (frame bytes, table, events; measured without decoding) and events an item holds. */
function measure(item: PanelItem): { frames: number; size: number; events: number } {
  switch (item.type) {
    case 'events': {
      const frames = wireFrameCount(item.frameTable);
      const size =
        wireByteLength(item.frameBytes) +
        wireByteLength(item.frameTable) +
        eventsCost(item.events) +
        EVENT_OVERHEAD_BYTES * (item.lostFrames?.length ?? 0);
      return { frames, size, events: Math.max(1, item.events.length + frames) };
    }
    case 'evicted':
      return { frames: wireFrameCount(item.frameTable), size: huskSize(item), events: 0 };
    case 'navigated':
      return { frames: 0, size: EVENT_OVERHEAD_BYTES + 2 * item.url.length, events: 1 };
    case 'gap':
    case 'dropped':
      return { frames: 0, size: EVENT_OVERHEAD_BYTES + 2 * item.reason.length, events: 1 };
  }
}

function huskSize(item: Extract<PanelItem, { type: 'evicted' }>): number {
  return (
    wireByteLength(item.frameTable) +
    eventsCost(item.events) +
    EVENT_OVERHEAD_BYTES * (1 + (item.lostFrames?.length ?? 0))
  );
}

/** What is kept of an item when its frame bytes are evicted (non-frame items are small: kept as they are). */
function huskOf(item: PanelItem, reason: string): PanelItem {
  if (item.type !== 'events') return item;
  const { frameBytes, type: _type, ...rest } = item;
  return { ...rest, type: 'evicted', frameBytesLength: wireByteLength(frameBytes), reason };
}

export class TabBuffers {
  readonly bufferId: string;
  readonly limits: BufferLimits;
  private readonly tabs = new Map<number, TabBuffer>();
  private readonly now: () => number;
  /** Bytes held across all tabs. */
  private total = 0;

  constructor(options: { bufferId?: string; limits?: Partial<BufferLimits>; now?: () => number } = {}) {
    this.bufferId = options.bufferId ?? globalThis.crypto.randomUUID();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  /**
   * Takes one relay batch from a tab; returns what to forward to that tab's live panels
   * (null when the batch adds nothing, e.g. a replayed `seq`).
   */
  ingest(tabId: number, batch: RelayBatch): PanelBatch | null {
    const tab = this.tab(tabId);
    const refused = this.reportRefused(tab);
    const known = tab.docs.get(batch.documentId);
    if (known && batch.seq <= known.seq) return null;
    const doc = known ?? { seq: 0, lostBatches: 0, lostHookFrames: 0, droppedFrames: 0, wasTop: false };
    const droppedFrames = batch.droppedFrames ?? 0;
    const counted = batch.framesBefore === undefined ? {} : { framesBefore: batch.framesBefore };
    const lostFrames = batch.lostFrames?.length ? { lostFrames: batch.lostFrames } : {};
    const items: PanelItem[] = [];

    if (batch.documentStart !== undefined) doc.start = batch.documentStart;
    if (batch.isTopFrame && !doc.wasTop) {
      if (tab.hadTop)
        items.push({
          type: 'navigated',
          url: capString(batch.documentUrl, MAX_URL),
          time: this.now(),
          documents: newPageDocuments(tab.docs, batch.documentId, doc.start),
        });
      tab.hadTop = true;
      doc.wasTop = true;
    }
    if (batch.seq > doc.seq + 1) {
      const missing = batch.seq - doc.seq - 1;
      items.push({
        type: 'gap',
        documentId: batch.documentId,
        seq: batch.seq,
        missing,
        ...counted,
        reason: known ? TRANSIT_REASON : RESTART_REASON,
      });
    }
    // Without events the item still tells the panel about new losses upstream.
    const lostHookFrames = batch.lostHookFrames ?? 0;
    if (
      batch.events.length ||
      wireFrameCount(batch.frameTable) ||
      batch.lostBatches > doc.lostBatches ||
      lostHookFrames > doc.lostHookFrames ||
      droppedFrames > doc.droppedFrames ||
      batch.lostFrames?.length
    ) {
      const { documentId, seq, lostBatches, frameTable, frameBytes } = batch;
      const events = capEvents(batch.events);
      const hookLoss = batch.lostHookFrames === undefined ? {} : { lostHookFrames };
      items.push({
        type: 'events',
        documentId,
        seq,
        lostBatches,
        ...hookLoss,
        ...(droppedFrames ? { droppedFrames } : {}),
        ...counted,
        ...lostFrames,
        events,
        frameTable,
        frameBytes,
      });
    }
    doc.seq = batch.seq;
    doc.lostBatches = Math.max(doc.lostBatches, batch.lostBatches);
    doc.lostHookFrames = Math.max(doc.lostHookFrames, lostHookFrames);
    doc.droppedFrames = Math.max(doc.droppedFrames, droppedFrames);
    // Re-insert: the map's order is least recently seen first.
    tab.docs.delete(batch.documentId);
    tab.docs.set(batch.documentId, doc);
    while (tab.docs.size > this.limits.maxDocuments) tab.docs.delete(tab.docs.keys().next().value!);

    if (refused) items.unshift(refused);
    if (!items.length) return null;
    for (const item of items) this.store(tab, item);
    this.evict(tab);
    this.shedGlobal();
    return {
      type: 'panel-batch',
      bufferId: this.bufferId,
      cursor: tab.nextCursor - 1,
      framesThrough: tab.framesTotal,
      items,
    };
  }

  /**
   * A batch the capture options say not to keep: nothing of it is stored, but its document's
   * `seq` moves on (so capturing later is no gap) and its frames are counted, reported as a
   * `dropped` item with `reason` when capture resumes or a panel connects.
   */
  refuse(tabId: number, batch: RelayBatch, reason: string): void {
    const tab = this.tab(tabId);
    const known = tab.docs.get(batch.documentId);
    if (known && batch.seq <= known.seq) return;
    const doc = known ?? { seq: 0, lostBatches: 0, lostHookFrames: 0, droppedFrames: 0, wasTop: false };
    doc.seq = batch.seq;
    doc.lostBatches = Math.max(doc.lostBatches, batch.lostBatches);
    doc.lostHookFrames = Math.max(doc.lostHookFrames, batch.lostHookFrames ?? 0);
    doc.droppedFrames = Math.max(doc.droppedFrames, batch.droppedFrames ?? 0);
    if (batch.isTopFrame && !doc.wasTop) {
      tab.hadTop = true;
      doc.wasTop = true;
    }
    tab.docs.delete(batch.documentId);
    tab.docs.set(batch.documentId, doc);
    while (tab.docs.size > this.limits.maxDocuments) tab.docs.delete(tab.docs.keys().next().value!);
    tab.refusedFrames += wireFrameCount(batch.frameTable);
    tab.refusedReason = reason;
  }

  /** Frames refused since the last report, as an item stored for the tab's panels (so a panel connecting now sees it). */
  flushRefused(tabId: number): PanelBatch | null {
    const tab = this.tabs.get(tabId);
    const item = tab && this.reportRefused(tab);
    if (!tab || !item) return null;
    this.store(tab, item);
    this.evict(tab);
    return {
      type: 'panel-batch',
      bufferId: this.bufferId,
      cursor: tab.nextCursor - 1,
      framesThrough: tab.framesTotal,
      items: [item],
    };
  }

  /** Forgets what a tab holds (DevTools closed on it with capture set to "only while DevTools is open"); its documents' seq stay. */
  clearTab(tabId: number): void {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    // A fresh buffer (nothing to report as lost: it was let go on purpose) that remembers its documents.
    const fresh = new TabBuffer();
    for (const [id, doc] of tab.docs) fresh.docs.set(id, doc);
    fresh.hadTop = tab.hadTop;
    this.total -= tab.held;
    this.tabs.set(tabId, fresh);
  }

  private tab(tabId: number): TabBuffer {
    let tab = this.tabs.get(tabId);
    if (!tab) this.tabs.set(tabId, (tab = new TabBuffer()));
    return tab;
  }

  private reportRefused(tab: TabBuffer): PanelItem | null {
    if (!tab.refusedFrames) return null;
    const item: PanelItem = { type: 'dropped', count: tab.refusedFrames, reason: tab.refusedReason };
    tab.refusedFrames = 0;
    return item;
  }

  /**
   * What a panel that connects now gets first: everything after `since` (everything when
   * `since` is absent or from another background lifetime), preceded by a `dropped` item for
   * frames evicted without a husk before the panel saw them. Split into messages of bounded
   * size and event count; always at least one, so the panel learns the cursor and buffer id.
   */
  backlog(tabId: number, since?: PanelCursor): PanelBatch[] {
    const tab = this.tabs.get(tabId) ?? new TabBuffer();
    const resume = since !== undefined && since.bufferId === this.bufferId && since.cursor < tab.nextCursor;
    const fromCursor = resume ? since.cursor + 1 : 1;
    const framesSeen = resume ? since.framesThrough : 0;
    const batches: PanelBatch[] = [];
    let items: PanelItem[] = [];
    let bytes = 0;
    let events = 0;
    let cursor = fromCursor - 1;
    let framesThrough = framesSeen;
    const flush = (): void => {
      batches.push({ type: 'panel-batch', bufferId: this.bufferId, cursor, framesThrough, items });
      items = [];
      bytes = 0;
      events = 0;
    };

    if (fromCursor < tab.headCursor()) {
      const lost = tab.framesAtHead() - framesSeen;
      if (lost > 0) items.push({ type: 'dropped', count: lost, reason: bufferFullReason(this.limits) });
      cursor = tab.headCursor() - 1;
      framesThrough = tab.framesAtHead();
    }
    for (let i = tab.head; i < tab.items.length; i++) {
      const s = tab.items[i]!;
      if (s.cursor < fromCursor) continue;
      const weight = Math.max(1, s.events, s.frames);
      if (items.length && (bytes + s.size > this.limits.maxBatchBytes || events + weight > this.limits.maxBatchEvents))
        flush();
      items.push(s.item);
      bytes += s.size;
      events += weight;
      cursor = s.cursor;
      framesThrough = s.framesBefore + s.frames;
    }
    if (items.length || !batches.length) flush();
    return batches;
  }

  /** The tab closed: forget it. */
  removeTab(tabId: number): void {
    const tab = this.tabs.get(tabId);
    if (tab) this.total -= tab.held;
    this.tabs.delete(tabId);
  }

  /** For tests and diagnostics. */
  stats(tabId: number): {
    items: number;
    husks: number;
    bytes: number;
    huskBytes: number;
    events: number;
    evictedFrames: number;
  } {
    const tab = this.tabs.get(tabId);
    if (!tab) return { items: 0, husks: 0, bytes: 0, huskBytes: 0, events: 0, evictedFrames: 0 };
    return {
      items: tab.items.length - tab.whole,
      husks: tab.whole - tab.head,
      bytes: tab.bytes,
      huskBytes: tab.huskBytes,
      events: tab.events,
      evictedFrames: tab.framesAtHead(),
    };
  }

  /**
   * What a panel whose last item is `since` has not been sent yet: frames, bytes and events
   * as the buffer counts them (what its caps would evict), O(1). Zero for a cursor of another
   * lifetime or past the end.
   */
  pendingAfter(tabId: number, since: PanelCursor): { items: number; frames: number; bytes: number; events: number } {
    const tab = this.tabs.get(tabId);
    if (!tab || since.bufferId !== this.bufferId || since.cursor + 1 >= tab.nextCursor)
      return { items: 0, frames: 0, bytes: 0, events: 0 };
    // Items are numbered without holes; the first one owed may already be gone (then from the oldest held).
    const first = tab.size
      ? tab.items[Math.max(tab.head, tab.head + since.cursor + 1 - tab.items[tab.head]!.cursor)]
      : undefined;
    if (!first) return { items: 0, frames: 0, bytes: 0, events: 0 };
    return {
      items: tab.nextCursor - first.cursor,
      frames: tab.framesTotal - first.framesBefore,
      bytes: tab.sizeTotal - first.sizeBefore,
      events: tab.eventsTotal - first.eventsBefore,
    };
  }

  /**
   * The newest `max` whole items after `since` (all of the tab's without it), newest first:
   * what a flood's live tail samples (flood-hold.ts). Items of another background lifetime's
   * cursor count as after it.
   */
  newestAfter(tabId: number, since: PanelCursor | undefined, max: number): PanelItem[] {
    const tab = this.tabs.get(tabId);
    if (!tab) return [];
    const after = since && since.bufferId === this.bufferId ? since.cursor : 0;
    const out: PanelItem[] = [];
    for (let i = tab.items.length - 1; i >= tab.whole && out.length < max; i--) {
      const s = tab.items[i]!;
      if (s.cursor <= after) break;
      out.push(s.item);
    }
    return out;
  }

  /** Bytes a relay batch adds to a tab's buffer, measured before it is taken in (flood-hold.ts releases before the cap would evict). */
  static incomingSize(batch: RelayBatch): { frames: number; bytes: number; events: number } {
    const frames = wireFrameCount(batch.frameTable);
    return {
      frames,
      bytes: wireByteLength(batch.frameBytes) + wireByteLength(batch.frameTable) + eventsCost(batch.events),
      events: Math.max(1, batch.events.length + frames),
    };
  }

  /** Bytes held across all tabs. */
  totalBytes(): number {
    return this.total;
  }

  private store(tab: TabBuffer, item: PanelItem): void {
    const m = measure(item);
    tab.items.push({
      cursor: tab.nextCursor++,
      item,
      frames: m.frames,
      size: m.size,
      events: m.events,
      framesBefore: tab.framesTotal,
      sizeBefore: tab.sizeTotal,
      eventsBefore: tab.eventsTotal,
    });
    tab.framesTotal += m.frames;
    tab.sizeTotal += m.size;
    tab.eventsTotal += m.events;
    tab.bytes += m.size;
    tab.events += m.events;
    this.total += m.size;
  }

  /** The oldest whole item loses its frame bytes (becomes a husk); false when there is none. */
  private huskOldest(tab: TabBuffer): boolean {
    if (tab.whole >= tab.items.length) return false;
    const s = tab.items[tab.whole++]!;
    tab.bytes -= s.size;
    tab.events -= s.events;
    this.total -= s.size;
    s.item = huskOf(s.item, evictedReason(this.limits));
    s.size = measure(s.item).size;
    s.events = 0;
    tab.huskBytes += s.size;
    this.total += s.size;
    return true;
  }

  /** The oldest husk goes (its frames are then only counted); false when there is none. */
  private dropOldestHusk(tab: TabBuffer): boolean {
    if (tab.head >= tab.whole) return false;
    const s = tab.items[tab.head++]!;
    tab.huskBytes -= s.size;
    this.total -= s.size;
    if (tab.head > 1024 && tab.head * 2 > tab.items.length) {
      tab.items.splice(0, tab.head);
      tab.whole -= tab.head;
      tab.head = 0;
    }
    return true;
  }

  private evict(tab: TabBuffer): void {
    while ((tab.bytes > this.limits.maxBytes || tab.events > this.limits.maxEvents) && this.huskOldest(tab));
    while (tab.huskBytes > this.limits.maxHuskBytes && this.dropOldestHusk(tab));
  }

  /** Over the global cap, the tab holding the most sheds first: frame bytes, then husks. */
  private shedGlobal(): void {
    while (this.total > this.limits.maxTotalBytes) {
      let largest: TabBuffer | undefined;
      for (const t of this.tabs.values()) if (!largest || t.held > largest.held) largest = t;
      if (!largest || !(this.huskOldest(largest) || this.dropOldestHusk(largest))) return;
    }
  }
}

/** The events with their strings capped (the same array when none needed it). */
function capEvents(events: readonly BatchEvent[]): readonly BatchEvent[] {
  let out: BatchEvent[] | null = null;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const capped = capEvent(e);
    if (capped !== e) (out ??= events.slice(0))[i] = capped;
  }
  return out ?? events;
}

/**
 * The documents of a new page: its top one, and those that started after it (its frames,
 * whose first batch may reach the background before the top one's). Without a start time a
 * document is taken for the page that was left.
 */
function newPageDocuments(docs: ReadonlyMap<string, DocState>, topId: string, start: number | undefined): string[] {
  const out = [topId];
  if (start === undefined) return out;
  for (const [id, d] of docs) if (id !== topId && !d.wasTop && d.start !== undefined && d.start >= start) out.push(id);
  return out;
}
