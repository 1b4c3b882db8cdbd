/**
 * Background items → the app's HostMessages. Keeps, per document, the last relay batch
 * (`seq`) and the hook losses (`lostBatches`) this panel has seen, so that a replayed backlog
 * adds nothing twice and a `gap` counts only the batches this panel really missed.
 */
import type { HostMessage, WireFrame } from '../../inspector-app/src/protocol/messages.js';
import type { PanelBatch, PanelItem, RelayEvent, WireBytes } from '../shared/messages.js';

export const HOOK_LOSS_REASON = "the page's capture hook lost batches before the relay got them";
export const FRAME_DROP_REASON = 'the page hook or relay dropped frames (too large to send, or over its limits)';
/** Documents remembered (least recently seen forgotten first). */
const MAX_DOCUMENTS = 4096;

export function base64ToBytes(b64: string): Uint8Array {
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (fromBase64) return fromBase64(b64);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function wireBytes(data: WireBytes): Uint8Array | null {
  if ('b64' in data && typeof data.b64 === 'string') {
    try {
      return base64ToBytes(data.b64);
    } catch {
      return null;
    }
  }
  const b = (data as { bytes?: unknown }).bytes;
  if (b instanceof Uint8Array) return b;
  // Structured clone may hand over a view from another realm: copy by shape.
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  return null;
}

export function isPanelBatch(v: unknown): v is PanelBatch {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return b.type === 'panel-batch' && typeof b.bufferId === 'string' && typeof b.cursor === 'number' && typeof b.framesThrough === 'number' && Array.isArray(b.items);
}

interface DocSeen {
  seq: number;
  lostBatches: number;
  droppedFrames: number;
  /** Frames the relay had sent through the last batch seen (when it counts them). */
  framesThrough: number | undefined;
}

export class PanelConverter {
  private readonly docs = new Map<string, DocSeen>();

  convert(items: readonly PanelItem[]): HostMessage[] {
    const out: HostMessage[] = [];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) continue;
      switch (item.type) {
        case 'events':
          this.events(item, out);
          break;
        case 'gap':
          this.gap(item, out);
          break;
        case 'dropped':
          if (item.count > 0) out.push({ type: 'dropped', count: item.count, reason: item.reason });
          break;
        case 'navigated':
          out.push({ type: 'navigated', url: item.url, time: item.time });
          break;
        default:
          break;
      }
    }
    return out;
  }

  /**
   * Batches seq-missing … seq-1 never reached the background; this panel may have received
   * some of them before (from the background's previous lifetime). Counted in frames when the
   * relay counts them (`framesBefore`), else in batches.
   */
  private gap(item: Extract<PanelItem, { type: 'gap' }>, out: HostMessage[]): void {
    const seen = this.docs.get(item.documentId);
    if (item.framesBefore !== undefined && (seen === undefined || seen.framesThrough !== undefined)) {
      const lost = item.framesBefore - (seen?.framesThrough ?? 0);
      if (lost > 0) out.push({ type: 'dropped', count: lost, reason: item.reason });
      return;
    }
    const lost = item.seq - 1 - Math.max(seen?.seq ?? 0, item.seq - 1 - item.missing);
    if (lost > 0) out.push({ type: 'dropped', count: lost, reason: `${item.reason} (counted in message batches)` });
  }

  private events(item: Extract<PanelItem, { type: 'events' }>, out: HostMessage[]): void {
    const seen = this.docs.get(item.documentId);
    if (seen && item.seq <= seen.seq) return; // already delivered (a replayed backlog)
    const lostBefore = seen?.lostBatches ?? 0;
    const droppedBefore = seen?.droppedFrames ?? 0;
    const dropped = typeof item.droppedFrames === 'number' ? item.droppedFrames : 0;
    if (item.lostBatches > lostBefore) out.push({ type: 'dropped', count: item.lostBatches - lostBefore, reason: HOOK_LOSS_REASON });
    if (dropped > droppedBefore) out.push({ type: 'dropped', count: dropped - droppedBefore, reason: FRAME_DROP_REASON });
    this.docs.delete(item.documentId);
    const framesThrough = typeof item.framesBefore === 'number' ? item.framesBefore + item.events.filter((e) => e.type === 'frame').length : undefined;
    this.docs.set(item.documentId, { seq: item.seq, lostBatches: Math.max(lostBefore, item.lostBatches), droppedFrames: Math.max(droppedBefore, dropped), framesThrough });
    if (this.docs.size > MAX_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);

    let frames: WireFrame[] | null = null;
    let undecodable = 0;
    for (const e of item.events as readonly RelayEvent[]) {
      const connectionId = `${item.documentId}:${e.socketId}`;
      if (e.type === 'frame') {
        const data = wireBytes(e.data);
        if (!data) {
          undecodable++;
          continue;
        }
        if (!frames) out.push({ type: 'frames', frames: (frames = []) });
        frames.push({ connectionId, direction: e.direction, time: e.time, opcode: e.opcode, data });
        continue;
      }
      frames = null;
      switch (e.type) {
        case 'opening':
          out.push({ type: 'connection-opening', connectionId, url: e.url, time: e.time });
          break;
        case 'open':
          out.push({ type: 'connection-opened', connectionId, url: e.url, protocol: e.protocol, extensions: e.extensions, time: e.time });
          break;
        case 'close':
          out.push({ type: 'connection-closed', connectionId, code: e.code, reason: e.reason, wasClean: e.wasClean, time: e.time });
          break;
        case 'error':
          out.push({ type: 'connection-error', connectionId, message: 'WebSocket error', time: e.time });
          break;
        default:
          break;
      }
    }
    if (undecodable) out.push({ type: 'dropped', count: undecodable, reason: 'frames arrived with bytes the panel could not read' });
  }
}
