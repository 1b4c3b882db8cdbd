/**
 * The background's memory: per tab, a bounded buffer of what the relays sent, so a panel
 * opened late still gets the frames captured before it. Pure logic (no browser API), driven
 * by main.ts. Every loss is reported, never silent:
 * - the buffer cap evicts the oldest items; a panel that missed them gets a `dropped` item
 *   with the exact frame count;
 * - a relay batch whose `seq` does not follow the last one seen for its document yields a
 *   `gap` item. A document never seen with `seq > 1` means this background did not see its
 *   start: the extension restarted (Chrome stops idle MV3 service workers and their memory
 *   with them). The panel, which knows which batches it already has, turns gaps into counts.
 * - a top-frame batch from a document that was never this tab's top document is a navigation.
 */
import { wireByteLength, wireFrameCount } from '../shared/frame-table.js';
import type { PanelBatch, PanelCursor, PanelItem, RelayBatch } from '../shared/messages.js';

export { wireByteLength };

export const RESTART_REASON = 'extension restarted; frames before this point were lost';
export const TRANSIT_REASON = 'relay batches were lost on the way to the extension';

export interface BufferLimits {
  /** Frame bytes kept per tab (decoded size). */
  readonly maxBytes: number;
  /** Events (frames, connection events, markers) kept per tab. */
  readonly maxEvents: number;
  /** Documents per tab whose `seq` is remembered (least recently seen forgotten first). */
  readonly maxDocuments: number;
  /** Frame bytes (and tables) per backlog message (Chrome refuses runtime messages over 64 MiB). */
  readonly maxBatchBytes: number;
}

export const DEFAULT_LIMITS: BufferLimits = {
  maxBytes: 32 * 1024 * 1024,
  maxEvents: 50_000,
  maxDocuments: 1024,
  maxBatchBytes: 4 * 1024 * 1024,
};

export function bufferFullReason(limits: BufferLimits): string {
  const mb = Math.round(limits.maxBytes / (1024 * 1024));
  return `the extension's buffer for this tab was full (${mb} MB or ${limits.maxEvents} events); the oldest frames were dropped`;
}

interface Stored {
  readonly cursor: number;
  readonly item: PanelItem;
  readonly frames: number;
  /** Frame bytes (what `maxBytes` caps). */
  readonly bytes: number;
  /** Frame bytes plus the frame table (what a backlog message carries). */
  readonly size: number;
  readonly events: number;
  /** Frames the tab's buffer took in before this item. */
  readonly framesBefore: number;
}

interface DocState {
  seq: number;
  lostBatches: number;
  droppedFrames: number;
  wasTop: boolean;
}

class TabBuffer {
  readonly items: Stored[] = [];
  head = 0;
  nextCursor = 1;
  framesTotal = 0;
  bytes = 0;
  events = 0;
  readonly docs = new Map<string, DocState>();
  hadTop = false;

  get size(): number {
    return this.items.length - this.head;
  }

  /** Frames taken in before the oldest item still held (= all frames ever evicted). */
  framesAtHead(): number {
    return this.size ? this.items[this.head]!.framesBefore : this.framesTotal;
  }

  headCursor(): number {
    return this.size ? this.items[this.head]!.cursor : this.nextCursor;
  }
}

/** Frames (table rows), their bytes (decoded size, measured without decoding) and events an item holds. */
function measure(item: PanelItem): { frames: number; bytes: number; size: number; events: number } {
  if (item.type !== 'events') return { frames: 0, bytes: 0, size: 0, events: 1 };
  const frames = wireFrameCount(item.frameTable);
  const bytes = wireByteLength(item.frameBytes);
  return { frames, bytes, size: bytes + wireByteLength(item.frameTable), events: Math.max(1, item.events.length + frames) };
}

export class TabBuffers {
  readonly bufferId: string;
  readonly limits: BufferLimits;
  private readonly tabs = new Map<number, TabBuffer>();
  private readonly now: () => number;

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
    let tab = this.tabs.get(tabId);
    if (!tab) this.tabs.set(tabId, (tab = new TabBuffer()));
    const known = tab.docs.get(batch.documentId);
    if (known && batch.seq <= known.seq) return null;
    const doc = known ?? { seq: 0, lostBatches: 0, droppedFrames: 0, wasTop: false };
    const droppedFrames = batch.droppedFrames ?? 0;
    const counted = batch.framesBefore === undefined ? {} : { framesBefore: batch.framesBefore };
    const items: PanelItem[] = [];

    if (batch.isTopFrame && !doc.wasTop) {
      if (tab.hadTop) items.push({ type: 'navigated', url: batch.documentUrl, time: this.now() });
      tab.hadTop = true;
      doc.wasTop = true;
    }
    if (batch.seq > doc.seq + 1) {
      const missing = batch.seq - doc.seq - 1;
      items.push({ type: 'gap', documentId: batch.documentId, seq: batch.seq, missing, ...counted, reason: known ? TRANSIT_REASON : RESTART_REASON });
    }
    // Without events the item still tells the panel about new losses upstream.
    if (batch.events.length || wireFrameCount(batch.frameTable) || batch.lostBatches > doc.lostBatches || droppedFrames > doc.droppedFrames) {
      const { documentId, seq, lostBatches, events, frameTable, frameBytes } = batch;
      items.push({ type: 'events', documentId, seq, lostBatches, ...(droppedFrames ? { droppedFrames } : {}), ...counted, events, frameTable, frameBytes });
    }
    doc.seq = batch.seq;
    doc.lostBatches = Math.max(doc.lostBatches, batch.lostBatches);
    doc.droppedFrames = Math.max(doc.droppedFrames, droppedFrames);
    // Re-insert: the map's order is least recently seen first.
    tab.docs.delete(batch.documentId);
    tab.docs.set(batch.documentId, doc);
    while (tab.docs.size > this.limits.maxDocuments) tab.docs.delete(tab.docs.keys().next().value!);

    if (!items.length) return null;
    for (const item of items) this.store(tab, item);
    this.evict(tab);
    return { type: 'panel-batch', bufferId: this.bufferId, cursor: tab.nextCursor - 1, framesThrough: tab.framesTotal, items };
  }

  /**
   * What a panel that connects now gets first: everything after `since` (everything when
   * `since` is absent or from another background lifetime), preceded by a `dropped` item for
   * frames the cap evicted before the panel saw them. Split into messages of bounded size;
   * always at least one, so the panel learns the cursor and buffer id.
   */
  backlog(tabId: number, since?: PanelCursor): PanelBatch[] {
    const tab = this.tabs.get(tabId) ?? new TabBuffer();
    const resume = since !== undefined && since.bufferId === this.bufferId && since.cursor < tab.nextCursor;
    const fromCursor = resume ? since.cursor + 1 : 1;
    const framesSeen = resume ? since.framesThrough : 0;
    const batches: PanelBatch[] = [];
    let items: PanelItem[] = [];
    let bytes = 0;
    let cursor = fromCursor - 1;
    let framesThrough = framesSeen;
    const flush = (): void => {
      batches.push({ type: 'panel-batch', bufferId: this.bufferId, cursor, framesThrough, items });
      items = [];
      bytes = 0;
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
      if (items.length && bytes + s.size > this.limits.maxBatchBytes) flush();
      items.push(s.item);
      bytes += s.size;
      cursor = s.cursor;
      framesThrough = s.framesBefore + s.frames;
    }
    if (items.length || !batches.length) flush();
    return batches;
  }

  /** The tab closed: forget it. */
  removeTab(tabId: number): void {
    this.tabs.delete(tabId);
  }

  /** For tests and diagnostics. */
  stats(tabId: number): { items: number; bytes: number; events: number; evictedFrames: number } {
    const tab = this.tabs.get(tabId);
    if (!tab) return { items: 0, bytes: 0, events: 0, evictedFrames: 0 };
    return { items: tab.size, bytes: tab.bytes, events: tab.events, evictedFrames: tab.framesAtHead() };
  }

  private store(tab: TabBuffer, item: PanelItem): void {
    const m = measure(item);
    tab.items.push({ cursor: tab.nextCursor++, item, ...m, framesBefore: tab.framesTotal });
    tab.framesTotal += m.frames;
    tab.bytes += m.bytes;
    tab.events += m.events;
  }

  private evict(tab: TabBuffer): void {
    while (tab.size && (tab.bytes > this.limits.maxBytes || tab.events > this.limits.maxEvents)) {
      const s = tab.items[tab.head]!;
      tab.head++;
      tab.bytes -= s.bytes;
      tab.events -= s.events;
    }
    if (tab.head > 1024 && tab.head * 2 > tab.items.length) {
      tab.items.splice(0, tab.head);
      tab.head = 0;
    }
  }
}
