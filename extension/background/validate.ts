/**
 * Shape checks for what reaches the background. A relay runs in a page's process, so a
 * compromised renderer could post anything on its port; nothing is trusted by type alone.
 */
import { PANEL_PORT_PREFIX, type PanelCursor, type PanelRequest, type RelayBatch, type RelayEvent, type WireBytes } from '../shared/messages.js';

type Rec = Record<string, unknown>;
const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null;
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

export function isWireBytes(v: unknown): v is WireBytes {
  if (!isObject(v)) return false;
  if ('b64' in v) return isString(v.b64);
  return v.bytes instanceof Uint8Array;
}

export function isRelayEvent(v: unknown): v is RelayEvent {
  if (!isObject(v) || !isCount(v.socketId) || !isNumber(v.time)) return false;
  switch (v.type) {
    case 'opening':
      return isString(v.url);
    case 'open':
      return isString(v.url) && isString(v.protocol) && isString(v.extensions);
    case 'frame':
      return (v.direction === 'sent' || v.direction === 'received') && (v.opcode === 'text' || v.opcode === 'binary') && isWireBytes(v.data);
    case 'close':
      return isNumber(v.code) && isString(v.reason) && typeof v.wasClean === 'boolean';
    case 'error':
      return true;
    default:
      return false;
  }
}

export function isRelayBatch(v: unknown): v is RelayBatch {
  return (
    isObject(v) &&
    v.type === 'relay-batch' &&
    isString(v.documentId) &&
    v.documentId.length > 0 &&
    isString(v.documentUrl) &&
    typeof v.isTopFrame === 'boolean' &&
    isCount(v.seq) &&
    v.seq >= 1 &&
    isCount(v.lostBatches) &&
    (v.droppedFrames === undefined || isCount(v.droppedFrames)) &&
    (v.framesBefore === undefined || isCount(v.framesBefore)) &&
    Array.isArray(v.events) &&
    v.events.every(isRelayEvent)
  );
}

export function isPanelCursor(v: unknown): v is PanelCursor {
  return isObject(v) && isString(v.bufferId) && isCount(v.cursor) && isCount(v.framesThrough);
}

export function isPanelRequest(v: unknown): v is PanelRequest {
  if (!isObject(v)) return false;
  if (v.type === 'panel-ping') return true;
  return v.type === 'panel-subscribe' && (v.since === undefined || isPanelCursor(v.since));
}

/** The tab id in a panel port's name, or null when the name is not one. */
export function panelPortTab(name: string): number | null {
  if (!name.startsWith(PANEL_PORT_PREFIX)) return null;
  const rest = name.slice(PANEL_PORT_PREFIX.length);
  if (!/^\d{1,15}$/.test(rest)) return null;
  return Number(rest);
}
