/**
 * Shape checks for what reaches the background. A relay runs in a page's process, so a
 * compromised renderer could post anything on its port; nothing is trusted by type alone.
 */
import {
  FRAME_ROW_BYTES,
  MAX_LOST_FRAME_ROWS,
  PANEL_PORT_PREFIX,
  type BatchEvent,
  type PanelCursor,
  type PanelRequest,
  type RelayBatch,
  type RelayConfig,
  type WireBytes,
  type WireCapture,
  type WireFrameBytes,
} from '../shared/messages.js';
import { isLostFrameRow } from '../shared/lost-rows.js';
import { wireByteLength } from '../shared/frame-table.js';

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

/** Frame bytes: wire bytes, or one Blob (this realm's: what structured clone hands over). */
export function isWireFrameBytes(v: unknown): v is WireFrameBytes {
  if (isObject(v) && 'blob' in v) return typeof Blob === 'function' && v.blob instanceof Blob;
  return isWireBytes(v);
}

export function isBatchEvent(v: unknown): v is BatchEvent {
  if (!isObject(v) || !isCount(v.socketId) || !isNumber(v.time) || !isCount(v.at)) return false;
  switch (v.type) {
    case 'opening':
      return isString(v.url);
    case 'open':
      return isString(v.url) && isString(v.protocol) && isString(v.extensions);
    case 'close':
      return isNumber(v.code) && isString(v.reason) && typeof v.wasClean === 'boolean';
    case 'error':
      return true;
    case 'worker': // a document started a worker (its sockets are out of the hook's reach)
      return (v.kind === 'dedicated' || v.kind === 'shared') && isString(v.url);
    case 'hold': // where a socket's intercepted frames stand (hook/intercept.ts)
      return (
        (v.direction === 'sent' || v.direction === 'received') &&
        isCount(v.held) &&
        isCount(v.heldBytes) &&
        isCount(v.head) &&
        isCount(v.forwarded) &&
        isCount(v.dropped) &&
        isCount(v.lost) &&
        (v.why === undefined ||
          v.why === 'rules-cleared' ||
          v.why === 'pagehide' ||
          v.why === 'limit' ||
          v.why === 'closed')
      );
    default:
      return false;
  }
}

/**
 * Events, frame table and bytes of a batch: whole table rows, events placed within them in
 * order. The rows themselves are checked by the panel, which reads them (a bad table costs
 * its frames, counted, not the panel).
 */
export function isWireCapture(v: Rec): v is Rec & WireCapture {
  if (!isWireBytes(v.frameTable) || !isWireFrameBytes(v.frameBytes) || !Array.isArray(v.events)) return false;
  const tableBytes = wireByteLength(v.frameTable);
  if (tableBytes % FRAME_ROW_BYTES !== 0) return false;
  const frames = tableBytes / FRAME_ROW_BYTES;
  let last = 0;
  for (const e of v.events as unknown[]) {
    if (!isBatchEvent(e) || e.at < last || e.at > frames) return false;
    last = e.at;
  }
  return true;
}

/** Relays make document ids of 32-36 characters; anything much longer is not a relay's. */
export const MAX_DOCUMENT_ID = 128;

export function isRelayBatch(v: unknown): v is RelayBatch {
  return (
    isObject(v) &&
    v.type === 'relay-batch' &&
    isString(v.documentId) &&
    v.documentId.length > 0 &&
    v.documentId.length <= MAX_DOCUMENT_ID &&
    (v.lostFrames === undefined ||
      (Array.isArray(v.lostFrames) &&
        v.lostFrames.length <= MAX_LOST_FRAME_ROWS &&
        v.lostFrames.every(isLostFrameRow))) &&
    isString(v.documentUrl) &&
    typeof v.isTopFrame === 'boolean' &&
    (v.documentStart === undefined || (typeof v.documentStart === 'number' && Number.isFinite(v.documentStart))) &&
    isCount(v.seq) &&
    v.seq >= 1 &&
    isCount(v.lostBatches) &&
    (v.droppedFrames === undefined || isCount(v.droppedFrames)) &&
    (v.framesBefore === undefined || isCount(v.framesBefore)) &&
    (v.lostHookFrames === undefined || isCount(v.lostHookFrames)) &&
    isWireCapture(v)
  );
}

/**
 * The answer to a relay's `relay-hello` (null for anything else): whether bytes may travel
 * as bytes, i.e. the probe arrived as a Uint8Array (runtime messaging is a structured clone).
 */
export function relayConfigFor(v: unknown): RelayConfig | null {
  if (!isObject(v) || v.type !== 'relay-hello') return null;
  const blob = v.probeBlob;
  return {
    type: 'relay-config',
    bytes: v.probe instanceof Uint8Array,
    blobs: typeof Blob === 'function' && blob instanceof Blob && blob.size === 3,
  };
}

export function isPanelCursor(v: unknown): v is PanelCursor {
  return isObject(v) && isString(v.bufferId) && isCount(v.cursor) && isCount(v.framesThrough);
}

export function isPanelRequest(v: unknown): v is PanelRequest {
  if (!isObject(v)) return false;
  if (v.type === 'panel-ping' || v.type === 'panel-release') return true;
  if (v.type === 'panel-action') return false; // checked apart (frame-actions.ts parsePanelAction)
  return v.type === 'panel-subscribe' && (v.since === undefined || isPanelCursor(v.since));
}

/** The tab id in a panel port's name, or null when the name is not one. */
export function panelPortTab(name: string, prefix = PANEL_PORT_PREFIX): number | null {
  if (!name.startsWith(prefix)) return null;
  const rest = name.slice(prefix.length);
  if (!/^\d{1,15}$/.test(rest)) return null;
  return Number(rest);
}
