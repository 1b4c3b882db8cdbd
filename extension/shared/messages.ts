/**
 * Messages of the capture pipeline: page hook → relay → background → panel. Every message
 * is a `readonly` discriminated union on `type`; every receiver validates by shape (the
 * page, and anything running in it, can post whatever it likes). Versioned by the tag.
 */
export const CAPTURE_TAG = 'wirescope/capture/v1' as const;

export type Direction = 'sent' | 'received';
export type Opcode = 'text' | 'binary';

/** What the page hook observed on one socket. `socketId` is unique within the document. */
export type HookEvent =
  | { readonly type: 'opening'; readonly socketId: number; readonly url: string; readonly time: number }
  | { readonly type: 'open'; readonly socketId: number; readonly url: string; readonly protocol: string; readonly extensions: string; readonly time: number }
  | { readonly type: 'frame'; readonly socketId: number; readonly direction: Direction; readonly opcode: Opcode; readonly time: number; readonly data: ArrayBuffer }
  | { readonly type: 'close'; readonly socketId: number; readonly code: number; readonly reason: string; readonly wasClean: boolean; readonly time: number }
  | { readonly type: 'error'; readonly socketId: number; readonly time: number };

/** Page hook → relay, by `window.postMessage` with the frames' buffers transferred. */
export interface HookBatch {
  readonly tag: typeof CAPTURE_TAG;
  readonly type: 'hook-batch';
  /** Per-document batch counter from 1: a gap means lost batches. */
  readonly seq: number;
  readonly events: readonly HookEvent[];
}

/** Bytes as they cross runtime messaging: base64 in Chrome (JSON only), bytes in Firefox. */
export type WireBytes = { readonly b64: string } | { readonly bytes: Uint8Array };

export type RelayEvent =
  | Exclude<HookEvent, { type: 'frame' }>
  | { readonly type: 'frame'; readonly socketId: number; readonly direction: Direction; readonly opcode: Opcode; readonly time: number; readonly data: WireBytes };

/** Relay → background, on the relay's runtime port (name `RELAY_PORT`). */
export interface RelayBatch {
  readonly type: 'relay-batch';
  /** Random id of the document the hook runs in (connection ids are `${documentId}:${socketId}`). */
  readonly documentId: string;
  readonly documentUrl: string;
  readonly isTopFrame: boolean;
  readonly seq: number;
  readonly events: readonly RelayEvent[];
  /** Hook batches the relay saw missing or refused (bad shape), so far, for this document. */
  readonly lostBatches: number;
  /** Optional: frames the hook or relay dropped so far in this document (too large, over limits). */
  readonly droppedFrames?: number;
  /**
   * Optional: frames this relay sent for the document in its earlier batches (cumulative,
   * not counting this batch's). With it, batches lost on the way (or forgotten by a restarted
   * background) are reported to the panel as an exact frame count instead of a batch count.
   */
  readonly framesBefore?: number;
}

export const RELAY_PORT = 'wirescope-relay';
/** Panel ports are named `wirescope-panel:<tabId>`. */
export const PANEL_PORT_PREFIX = 'wirescope-panel:';

/**
 * Background → panel: what the background's per-tab buffer holds, in order. Frames keep the
 * relay's `WireBytes` (base64 in Chrome, bytes in Firefox); the panel turns them into the
 * app's `HostMessage`s (connection ids `${documentId}:${socketId}`).
 */
export type PanelItem =
  /**
   * One relay batch: `seq`, `lostBatches` and (when the relay sends it) `droppedFrames` as the
   * relay sent them, so the panel can tell what it already has and what was lost (cumulative
   * per document; the panel reports the increase).
   */
  | { readonly type: 'events'; readonly documentId: string; readonly seq: number; readonly lostBatches: number; readonly droppedFrames?: number; readonly framesBefore?: number; readonly events: readonly RelayEvent[] }
  /**
   * Relay batches `seq - missing` … `seq - 1` of a document never reached this background
   * (restart, lost in transit); `framesBefore` is the relay's count before batch `seq`, if sent.
   */
  | { readonly type: 'gap'; readonly documentId: string; readonly seq: number; readonly missing: number; readonly framesBefore?: number; readonly reason: string }
  /** Frames the background lost itself (buffer cap); exact counts. */
  | { readonly type: 'dropped'; readonly count: number; readonly reason: string }
  /** The tab's top frame has a new document. */
  | { readonly type: 'navigated'; readonly url: string; readonly time: number };

/** Where a panel is in a tab's buffer: `bufferId` names one background lifetime. */
export interface PanelCursor {
  readonly bufferId: string;
  /** Cursor of the last item received (items are numbered from 1 per tab). */
  readonly cursor: number;
  /** Frames the tab's buffer had taken in up to and including `cursor`. */
  readonly framesThrough: number;
}

/** Background → panel, on the panel port (name `PANEL_PORT_PREFIX + tabId`). */
export interface PanelBatch extends PanelCursor {
  readonly type: 'panel-batch';
  readonly items: readonly PanelItem[];
}

/**
 * Panel → background. `panel-subscribe` first (and after every reconnect): the background
 * answers with the backlog after `since` (all of it without one, or when `since` names
 * another background lifetime), then forwards new items live. `panel-ping` only keeps a
 * Chrome service worker awake while the panel is open.
 */
export type PanelRequest =
  | { readonly type: 'panel-subscribe'; readonly since?: PanelCursor }
  | { readonly type: 'panel-ping' };
