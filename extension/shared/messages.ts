/**
 * Messages of the capture pipeline: page hook → relay → background → panel. Every message
 * is a `readonly` discriminated union on `type`; every receiver validates by shape (the
 * page, and anything running in it, can post whatever it likes). Versioned by the tag.
 */
/**
 * The tag stays `v1` although the batch layout changed (frame table + slab, below): the hook
 * and the relay always ship in one build, each refuses the other layout by shape (counted as
 * lost, never misread), and e2e/support/ext-pages.ts and bench:ext match the tag literally.
 */
export const CAPTURE_TAG = 'wirescope/capture/v1' as const;

export type Direction = 'sent' | 'received';
export type Opcode = 'text' | 'binary';

/**
 * Frames travel as columns, not objects: a frame table of `FRAME_COLUMNS` float64s per frame
 * (socketId, flags, time, byte length) and the frames' bytes back to back in one buffer, in
 * the same order (frame i starts where frame i - 1 ended). One post or one string per batch,
 * whatever the frame count: no per-frame object, ArrayBuffer or base64 string. Every receiver
 * checks every row (shared/frame-table.ts).
 */
export const FRAME_COLUMNS = 4;
export const FRAME_ROW_BYTES = FRAME_COLUMNS * 8;
/** Flag bits of a frame row: received (else sent), binary (else text). */
export const FRAME_RECEIVED = 1;
export const FRAME_BINARY = 2;
/** Flag bit of a frame row: wirescope itself sent or delivered it (Send again, Deliver to page). */
export const FRAME_WIRESCOPE = 4;
/** Flag bit of a frame row: an intercept rule held the frame (the panel's Forward / Drop act on it). */
export const FRAME_HELD = 8;
/** Flag bit of a frame row: an intercept rule dropped the frame (never sent, or kept from the page). */
export const FRAME_DROPPED = 16;
/** Every flag bit a frame row may carry. */
export const FRAME_FLAGS_MAX = 31;

/** Which kind of worker a page started (its sockets are out of the page hook's reach). */
export type WorkerKind = 'dedicated' | 'shared';

/**
 * The document a socket or worker belongs to, added by the relay (the page cannot set it):
 * its URL and origin (`null` for a sandboxed frame; an about:blank frame's is its creator's).
 */
export interface DocumentInfo {
  readonly documentUrl?: string;
  readonly documentOrigin?: string;
}

/**
 * What the page hook observed on one socket, besides frames. `socketId` is unique within the
 * document. `worker` is not a socket: the document started a worker whose own WebSockets the
 * hook cannot see (socketId 0); the panel says so.
 */
export type SocketEvent =
  | ({
      readonly type: 'opening';
      readonly socketId: number;
      readonly url: string;
      readonly time: number;
    } & DocumentInfo)
  | ({
      readonly type: 'worker';
      readonly socketId: number;
      readonly kind: WorkerKind;
      readonly url: string;
      readonly time: number;
    } & DocumentInfo)
  | {
      readonly type: 'open';
      readonly socketId: number;
      readonly url: string;
      readonly protocol: string;
      readonly extensions: string;
      readonly time: number;
    }
  | {
      readonly type: 'close';
      readonly socketId: number;
      readonly code: number;
      readonly reason: string;
      readonly wasClean: boolean;
      readonly time: number;
    }
  | { readonly type: 'error'; readonly socketId: number; readonly time: number }
  | HoldEvent;

/**
 * Where one socket's intercepted frames stand in one direction, sent by the hook after each
 * change: `held` frames wait now (`heldBytes` bytes), the first of them numbered `head` (0
 * when none waits; the panel's Forward / Drop name it). The other counts are cumulative for
 * the socket and direction: frames forwarded, dropped (by a rule or by the user) and lost
 * (the socket closed while they were held: a sent frame cannot go out any more). `why` says
 * what released everything at once, when something did.
 */
export interface HoldEvent {
  readonly type: 'hold';
  readonly socketId: number;
  readonly time: number;
  readonly direction: Direction;
  readonly held: number;
  readonly heldBytes: number;
  readonly head: number;
  readonly forwarded: number;
  readonly dropped: number;
  readonly lost: number;
  readonly why?: HoldReleaseWhy;
}

/** What released every held frame at once. */
export type HoldReleaseWhy = 'rules-cleared' | 'pagehide' | 'limit' | 'closed';

/**
 * A socket event in a batch, placed before the batch's frame number `at` (0-based; `at` equal
 * to the frame count: after every frame). `at` never decreases along `events`.
 */
export type BatchEvent = SocketEvent & { readonly at: number };

/** Page hook → relay, by `window.postMessage` with `frameTable` and `frameBytes` transferred. */
export interface HookBatch {
  readonly tag: typeof CAPTURE_TAG;
  readonly type: 'hook-batch';
  /** Per-document batch counter from 1: a gap means lost batches. */
  readonly seq: number;
  readonly events: readonly BatchEvent[];
  readonly frameCount: number;
  /** At least `frameCount` rows of FRAME_COLUMNS float64s (the hook's table; the rest is unused). */
  readonly frameTable: ArrayBuffer;
  /** The frames' bytes back to back in its first `frameBytesUsed` bytes (the hook's slab). */
  readonly frameBytes: ArrayBuffer;
  readonly frameBytesUsed: number;
  /**
   * Frames the hook dropped so far in this document — cumulative, so a lost batch loses no
   * count (over the pending-bytes cap, unreadable Blobs, a failed post). Absent while 0.
   */
  readonly droppedFrames?: number;
  /**
   * Frames in this document's earlier batches, posted or not (cumulative): the relay counts
   * the frames of a batch it never got or refused exactly, in frames.
   */
  readonly framesBefore?: number;
  /** The frames dropped since the last batch, one row each (at most MAX_LOST_FRAME_ROWS), for placeholder rows. */
  readonly lostFrames?: readonly LostFrameRow[];
}

/** Bytes as they cross runtime messaging: bytes under structured clone (Firefox, Chrome 148+), base64 under JSON. */
export type WireBytes = { readonly b64: string } | { readonly bytes: Uint8Array };

/**
 * A batch's frame bytes as they cross runtime messaging: as `WireBytes`, or as one Blob where
 * messaging carries Blobs (Chrome 148+ with structured clone): the message then holds a
 * handle, and the bytes go to the browser's blob store off the page's main thread (posting a
 * Uint8Array costs the page ~3 ns per byte on its main thread, a Blob ~1.3).
 */
export type WireFrameBytes = WireBytes | { readonly blob: Blob };

/** A batch's frames and socket events as they cross runtime messaging (relay → background → panel). */
export interface WireCapture {
  readonly events: readonly BatchEvent[];
  /** Exactly one row (FRAME_ROW_BYTES) per frame. */
  readonly frameTable: WireBytes;
  /** Exactly the frames' bytes, back to back. */
  readonly frameBytes: WireFrameBytes;
}

/** Relay → background, on the relay's runtime port (name `RELAY_PORT`). */
export interface RelayBatch extends WireCapture {
  readonly type: 'relay-batch';
  /** Random id of the document the hook runs in (connection ids are `${documentId}:${socketId}`). */
  readonly documentId: string;
  readonly documentUrl: string;
  readonly isTopFrame: boolean;
  /**
   * Optional: when the document's navigation started (its `performance.timeOrigin`, ms since
   * the epoch). A frame a page creates starts after the page, so when the top frame has a new
   * document, the documents that started before it are the page that was left.
   */
  readonly documentStart?: number;
  readonly seq: number;
  /** Hook batches the relay saw missing or refused (bad shape), so far, for this document. */
  readonly lostBatches: number;
  /**
   * Optional: the frames those batches held, so far (from the hook's framesBefore, or a
   * refused batch's own frame count): the panel reports hook losses in frames with it.
   */
  readonly lostHookFrames?: number;
  /** Optional: frames the hook or relay dropped so far in this document (too large, over limits). */
  readonly droppedFrames?: number;
  /**
   * Optional: frames this relay sent for the document in its earlier batches (cumulative,
   * not counting this batch's). With it, batches lost on the way (or forgotten by a restarted
   * background) are reported to the panel as an exact frame count instead of a batch count.
   */
  readonly framesBefore?: number;
  /**
   * Optional: the frames dropped since the last batch (counted in `droppedFrames`), one row
   * each, so the panel shows a placeholder row where each would have been (at most
   * `MAX_LOST_FRAME_ROWS` per batch; the count covers the rest).
   */
  readonly lostFrames?: readonly LostFrameRow[];
}

/**
 * Why a frame never reached the background: too large to send, over the hook's limit of
 * bytes waiting, a Blob the hook could not read, or in a batch the hook could not post.
 */
export type LostFrameWhy = 'too-large' | 'hook-limit' | 'unreadable' | 'unsent';

/** A frame that was dropped on the way: what a placeholder row shows (its bytes are gone). */
export interface LostFrameRow {
  readonly socketId: number;
  /** FRAME_RECEIVED / FRAME_BINARY bits, as in a frame table row. */
  readonly flags: number;
  readonly time: number;
  /** The frame's size in bytes. */
  readonly length: number;
  readonly why: LostFrameWhy;
}

export const MAX_LOST_FRAME_ROWS = 1024;

/**
 * Relay → background, first on a new port when the relay does not know how bytes travel
 * (Chrome: JSON, or structured clone from Chrome 148 with `message_serialization`).
 */
export interface RelayHello {
  readonly type: 'relay-hello';
  /** Arrives as a Uint8Array under structured clone, as a plain object under JSON. */
  readonly probe: Uint8Array;
  /** The bytes 1, 2, 3 as a Blob: arrives as a Blob of 3 bytes where messaging carries Blobs. */
  readonly probeBlob?: Blob;
}

/**
 * Background → relay, the answer to `relay-hello`: `bytes` when the probe arrived as a
 * Uint8Array, `blobs` when the Blob probe arrived as a Blob of its size (frame bytes may then
 * travel as Blobs).
 */
export interface RelayConfig {
  readonly type: 'relay-config';
  readonly bytes: boolean;
  readonly blobs?: boolean;
}

export const RELAY_PORT = 'wirescope-relay';
/**
 * The DevTools page connects `wirescope-devtools:<tabId>` while DevTools is open on a tab
 * (the capture option "only while DevTools is open" needs to know; it carries no messages).
 */
export const DEVTOOLS_PORT_PREFIX = 'wirescope-devtools:';
/** Panel ports are named `wirescope-panel:<tabId>`. */
export const PANEL_PORT_PREFIX = 'wirescope-panel:';

/**
 * Background → panel: what the background's per-tab buffer holds, in order. Frames keep the
 * relay's `WireCapture` (base64 in Chrome, bytes in Firefox); the panel turns them into the
 * app's `HostMessage`s (connection ids `${documentId}:${socketId}`), slicing each frame's bytes.
 */
export type PanelItem =
  /**
   * One relay batch: `seq`, `lostBatches` and (when the relay sends it) `droppedFrames` as the
   * relay sent them, so the panel can tell what it already has and what was lost (cumulative
   * per document; the panel reports the increase).
   */
  | ({
      readonly type: 'events';
      readonly documentId: string;
      readonly seq: number;
      readonly lostBatches: number;
      readonly lostHookFrames?: number;
      readonly droppedFrames?: number;
      readonly framesBefore?: number;
      readonly lostFrames?: readonly LostFrameRow[];
    } & WireCapture)
  /**
   * What is left of an `events` item whose frame bytes the tab's cap evicted: its socket
   * events (so connections keep their URL, protocol, open and close) and its frame table
   * (`frameBytesLength` is what the bytes added up to), so the panel shows one placeholder
   * row per frame (time, direction, size, `reason`).
   */
  | {
      readonly type: 'evicted';
      readonly documentId: string;
      readonly seq: number;
      readonly lostBatches: number;
      readonly lostHookFrames?: number;
      readonly droppedFrames?: number;
      readonly framesBefore?: number;
      readonly lostFrames?: readonly LostFrameRow[];
      readonly events: readonly BatchEvent[];
      readonly frameTable: WireBytes;
      readonly frameBytesLength: number;
      readonly reason: string;
    }
  /**
   * Relay batches `seq - missing` … `seq - 1` of a document never reached this background
   * (restart, lost in transit); `framesBefore` is the relay's count before batch `seq`, if sent.
   */
  | {
      readonly type: 'gap';
      readonly documentId: string;
      readonly seq: number;
      readonly missing: number;
      readonly framesBefore?: number;
      readonly reason: string;
    }
  /** Frames the background lost itself (buffer cap); exact counts. */
  | { readonly type: 'dropped'; readonly count: number; readonly reason: string }
  /**
   * The tab's top frame has a new document. `documents`: the ones of the new page known so far
   * (the new top one, and frames that started after it and reported first); every other
   * document of the tab went with the page that was left.
   */
  | { readonly type: 'navigated'; readonly url: string; readonly time: number; readonly documents?: readonly string[] };

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
 * Background → panel, while the tab floods: the background holds the tab's new items for this
 * panel instead of posting them (background/flood-hold.ts) and says how much waits: `frames`
 * and `bytes` held (as the tab's buffer counts them). Sent at most every 400 ms while
 * holding, and once with 0 and 0 when the held items have gone out. The rates are over the
 * last second: `arriving` frames/s the tab took in, `heldPerSecond` frames/s put on hold for
 * this panel, and per connection what is held and how fast it arrives.
 */
export interface PanelHeld {
  readonly type: 'panel-held';
  readonly frames: number;
  readonly bytes: number;
  readonly arriving?: number;
  readonly heldPerSecond?: number;
  readonly connections?: readonly HeldConnection[];
}

/** One connection's share of what a panel is owed under a flood (id `${documentId}:${socketId}`). */
export interface HeldConnection {
  readonly connectionId: string;
  /** Frames of it held for the panel. */
  readonly frames: number;
  /** Frames of it the tab took in per second, over the last second. */
  readonly perSecond: number;
}

/** Some frames of one relay batch, copied out of it (a live tail sample): rows and bytes as in a `WireCapture`. */
export interface PanelTailItem {
  readonly documentId: string;
  readonly frameTable: WireBytes;
  readonly frameBytes: WireFrameBytes;
}

/**
 * Background → panel, while the tab floods: the live tail, the newest frames of each
 * connection among those held for this panel (background/tail-sample.ts), oldest first. A
 * sample: each one replaces the last, and the held frames themselves still come in order
 * later. Posted with each `panel-held` status; an empty one (`items: []`) before held items
 * go out, so the panel drops its sampled rows before the frames they sampled arrive.
 */
export interface PanelTail {
  readonly type: 'panel-tail';
  readonly items: readonly PanelTailItem[];
}

/**
 * Background → panel, after each `panel-subscribe` and whenever the options change: whether
 * the options' **Act on the page** switch lets the panel act (false: the background refuses
 * every action, so the panel turns its buttons off and says why).
 */
export interface PanelOptions {
  readonly type: 'panel-options';
  readonly actions: boolean;
}

/** Everything the background posts on a panel port. */
export type PanelMessage = PanelBatch | PanelHeld | PanelTail | PanelActionResult | PanelOptions;

/**
 * Panel → background. `panel-subscribe` first (and after every reconnect): the background
 * answers with the backlog after `since` (all of it without one, or when `since` names
 * another background lifetime), then forwards new items live. `panel-ping` only keeps a
 * Chrome service worker awake while the panel is open. `panel-release` asks for what the
 * background holds for this panel during a flood now ("Show now").
 */
export type PanelRequest =
  | { readonly type: 'panel-subscribe'; readonly since?: PanelCursor }
  | { readonly type: 'panel-ping' }
  | { readonly type: 'panel-release' }
  | PanelAction
  | PanelRules
  | PanelHoldAction;

/**
 * What wirescope can do with a frame on the page: `send` puts the bytes on the socket again
 * (as the page's own `send` would), `deliver` hands them to the page's listeners as a
 * `message` event from that socket (as if the server had sent them).
 */
export type FrameActionKind = 'send' | 'deliver';

/** Panel → background: act on connection `connectionId` (`${documentId}:${socketId}`) of the panel's tab. */
export interface PanelAction {
  readonly type: 'panel-action';
  /** Chosen by the panel; the answer (`panel-action-result`) carries it back. */
  readonly requestId: number;
  readonly action: FrameActionKind;
  readonly connectionId: string;
  /** A binary frame (else text: `b64` holds its UTF-8 bytes). */
  readonly binary: boolean;
  /** The frame's bytes, base64 (runtime messaging may be JSON). */
  readonly b64: string;
}

/** Background → panel: how a `panel-action` ended (`error` says why it did nothing). */
export interface PanelActionResult {
  readonly type: 'panel-action-result';
  readonly requestId: number;
  readonly ok: boolean;
  readonly error?: string;
}

/** Background → relay, on the relay's port: the action for one of its document's sockets. */
export interface RelayAction {
  readonly type: 'relay-action';
  readonly requestId: number;
  readonly action: FrameActionKind;
  readonly socketId: number;
  readonly binary: boolean;
  readonly b64: string;
}

/** Relay → background: the hook's answer to a `relay-action`. */
export interface RelayActionResult {
  readonly type: 'relay-action-result';
  readonly requestId: number;
  readonly ok: boolean;
  readonly error?: string;
}

/** Relay → hook, on the private channel (the page cannot post there): a `RelayAction` with its bytes decoded. */
export interface HookAction {
  readonly type: 'hook-action';
  readonly requestId: number;
  readonly action: FrameActionKind;
  readonly socketId: number;
  readonly binary: boolean;
  readonly bytes: ArrayBuffer;
}

/** Hook → relay, on the private channel: how a `hook-action` ended. */
export interface HookActionResult {
  readonly type: 'hook-action-result';
  readonly requestId: number;
  readonly ok: boolean;
  readonly error?: string;
}

/** What an intercept rule does with a frame it matches. */
export type InterceptAction = 'pause' | 'drop' | 'delay';

/**
 * An intercept rule as the hook applies it. `url`: a glob over the socket URL ('*' any run
 * of characters; '' any URL). `contains`: '' any frame; else a text frame containing it, or a
 * binary frame whose bytes contain its UTF-8 bytes. `socketIds`, when present, restricts the
 * rule to those sockets of the document (the panel resolves format and protocol rules to the
 * connections it saw in that format).
 */
export interface InterceptRule {
  readonly id: string;
  readonly direction: Direction | 'both';
  readonly url: string;
  readonly contains: string;
  readonly action: InterceptAction;
  readonly delayMs: number;
  readonly socketIds?: readonly number[];
}

/** Rules as the panel keeps them (per tab): `connectionIds` as `${documentId}:${socketId}`. */
export interface PanelRule extends Omit<InterceptRule, 'socketIds'> {
  readonly connectionIds?: readonly string[];
}

/** Panel → background: the tab's rules now (the enabled ones; [] clears them and forwards every held frame). */
export interface PanelRules {
  readonly type: 'panel-rules';
  readonly rules: readonly PanelRule[];
}

/** What the panel does with held frames: the first (`forward`, `edit`: new bytes instead, `drop`) or all of them. */
export type HoldActionKind = 'forward' | 'edit' | 'drop' | 'forward-all';

/** Panel → background: act on the held frames of connection `connectionId` in `direction`. */
export interface PanelHoldAction {
  readonly type: 'panel-hold';
  readonly requestId: number;
  readonly action: HoldActionKind;
  readonly connectionId: string;
  readonly direction: Direction;
  /** The held frame acted on (the `head` of the last HoldEvent); ignored by `forward-all`. */
  readonly seq: number;
  /** `edit` only: the new frame (binary, else text: `b64` holds its UTF-8 bytes). */
  readonly binary?: boolean;
  readonly b64?: string;
}

/** Background → relay: the rules for this document (socket ids resolved), [] to clear and release. */
export interface RelayRules {
  readonly type: 'relay-rules';
  readonly rules: readonly InterceptRule[];
}

/** Background → relay: a hold action for one of its document's sockets (answered with `relay-action-result`). */
export interface RelayHoldAction {
  readonly type: 'relay-hold';
  readonly requestId: number;
  readonly action: HoldActionKind;
  readonly socketId: number;
  readonly direction: Direction;
  readonly seq: number;
  readonly binary?: boolean;
  readonly b64?: string;
}

/** Relay → hook, on the private channel: the rules ([] clears them and forwards every held frame). */
export interface HookRules {
  readonly type: 'hook-rules';
  readonly rules: readonly InterceptRule[];
}

/** Relay → hook, on the private channel: a `RelayHoldAction` with its bytes decoded (answered with `hook-action-result`). */
export interface HookHoldAction {
  readonly type: 'hook-hold';
  readonly requestId: number;
  readonly action: HoldActionKind;
  readonly socketId: number;
  readonly direction: Direction;
  readonly seq: number;
  readonly binary: boolean;
  readonly bytes: ArrayBuffer | null;
}
