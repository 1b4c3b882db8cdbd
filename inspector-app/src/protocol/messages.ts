/**
 * The versioned message protocol between a host (extension panel port, WebSocket client,
 * HAR file, paste buffer) and the inspector app. Every message is a `readonly`
 * discriminated union on `type`; hosts that cross a process boundary validate by shape
 * (see `isHostMessage`) because the other side may post anything.
 */
export const PROTOCOL_VERSION = 1;

// Frames and connections are the capture files' shapes (codecs/capture: the CLI reads them too).
import type { ConnectionInfo, Direction, Opcode, WireFrame } from '../../../codecs/capture/types.js';
export type { ConnectionInfo, Direction, Opcode, WireFrame };
// Connection events are the proxy feed's too (codecs/capture/live-feed.ts).
import type {
  ConnectionClosed,
  ConnectionError,
  ConnectionOpened,
  ConnectionOpening,
  FramesArrived,
  FramesDropped,
} from '../../../codecs/capture/connection-events.js';
import { isPackedFrames, type PackedFrames } from './packed-frames.js';

/**
 * A frame the host lost (too large to carry, evicted by its buffer): no bytes, but a
 * placeholder row in the list where it would have been, with why.
 */
export interface LostFrame {
  readonly connectionId: string;
  readonly direction: Direction;
  readonly time: number;
  readonly opcode: Opcode;
  /** The frame's size in bytes. */
  readonly size: number;
  readonly reason: string;
}

/** Host → app. */
export type HostMessage =
  | { readonly type: 'hello'; readonly protocolVersion: number; readonly host: string }
  | FramesArrived
  /** The same frames packed (packed-frames.ts): a host's batch that tiles one buffer. */
  | { readonly type: 'frames-packed'; readonly packed: PackedFrames }
  /** `documentUrl` / `documentOrigin` (optional): the document (frame) that opened the connection. */
  /**
   * `seenFrom`: the host began seeing this socket only then, after it had opened (debugger
   * capture attached to a worker late): frames before it were not seen.
   */
  | (ConnectionOpening & {
      readonly documentUrl?: string;
      readonly documentOrigin?: string;
      readonly seenFrom?: number;
    })
  | ConnectionOpened
  | ConnectionClosed
  | ConnectionError
  /** Frames the host lost before they reached the app (buffer cap, worker restart); never silent. */
  | FramesDropped
  /** Placeholder rows for lost frames (their count also comes as `dropped`). */
  | { readonly type: 'lost-frames'; readonly frames: readonly LostFrame[] }
  /**
   * The inspected page navigated; the app keeps or clears frames per its setting. Its open
   * sockets went with it, but those in `stay` (the new page's, reported before the navigation
   * was known); without `stay`, all of them.
   */
  | { readonly type: 'navigated'; readonly url: string; readonly time: number; readonly stay?: readonly string[] }
  /** Whether the host lets the app act on the page now (Send again, Deliver to page; an option the user turns off). */
  | { readonly type: 'page-actions'; readonly allowed: boolean }
  /**
   * Something opened sockets (or may have) where the host cannot capture them, e.g. a page
   * started a worker (`kind`: 'dedicated-worker', 'shared-worker', …; `url` its script);
   * `reason` says what is not captured and what to do. Shown as a notice, never silent.
   */
  | {
      readonly type: 'uncaptured';
      readonly kind: string;
      readonly url: string;
      readonly time: number;
      readonly reason: string;
      readonly documentUrl?: string;
      readonly documentOrigin?: string;
    }
  /** The host's debugger capture mode (Chrome extension): its state and what to tell the user. */
  | { readonly type: 'debugger-capture'; readonly state: 'off' | 'starting' | 'on' | 'error'; readonly message: string }
  /**
   * Under a flood the host holds this many frames (and bytes) for the app instead of sending
   * them (the extension's background: the page keeps its CPU); they come when the flood calms,
   * or at once on `show-held`. 0 and 0: nothing is held any more.
   */
  | {
      readonly type: 'held';
      readonly frames: number;
      readonly bytes: number;
      /** Frames/s the host takes in, and puts on hold for the app, over the last second (while it holds). */
      readonly arriving?: number;
      readonly heldPerSecond?: number;
      /** What is held per connection, and how fast each arrives. */
      readonly connections?: readonly HeldConnection[];
    }
  /**
   * While the host holds frames (`held`), the newest of them per connection, copied: the live
   * tail. A sample, listed apart from the frames (marked as such): each one replaces the last,
   * and an empty one clears it — the host sends that before the held frames themselves come.
   */
  | { readonly type: 'tail'; readonly frames: readonly WireFrame[] }
  /** How a `frame-action` ended: `error` says why nothing (or not all) was done. */
  | { readonly type: 'frame-action-result'; readonly requestId: number; readonly ok: boolean; readonly error?: string }
  /** Where a connection's intercepted frames stand in one direction (hosts with `intercept`). */
  | HoldState;

/**
 * Frames an intercept rule holds on one connection in one direction: `held` now (`heldBytes`),
 * the first numbered `head` (0: none); cumulative `forwarded`, `dropped` and `lost` (the socket
 * closed while a sent frame was held); `why`: what released everything at once.
 */
export interface HoldState {
  readonly type: 'hold-state';
  readonly connectionId: string;
  readonly direction: Direction;
  readonly time: number;
  readonly held: number;
  readonly heldBytes: number;
  readonly head: number;
  readonly forwarded: number;
  readonly dropped: number;
  readonly lost: number;
  readonly why?: string;
}

/** What an intercept rule does with a frame it matches. */
export type InterceptRuleAction = 'pause' | 'drop' | 'delay';

/**
 * An intercept rule (hosts with `intercept`): direction, URL glob ('*' wildcards, '' any),
 * `contains` ('' any; text, or a binary frame's bytes holding its UTF-8 bytes), and
 * `connectionIds` when restricted to connections (a format rule, resolved by the app).
 */
export interface InterceptRuleSpec {
  readonly id: string;
  readonly direction: Direction | 'both';
  readonly url: string;
  readonly contains: string;
  readonly action: InterceptRuleAction;
  readonly delayMs: number;
  readonly connectionIds?: readonly string[];
}

/** What the app does with held frames: the first one (`forward`, `edit`, `drop`) or all of them. */
export type HoldActionKind = 'forward' | 'edit' | 'drop' | 'forward-all';

/**
 * What the app may ask a host to do with a frame's bytes on the page (hosts with
 * `frameActions`): `send` them on the connection as the page would, `deliver` them to the
 * page's listeners as if the server had sent them.
 */
export type FrameActionKind = 'send' | 'deliver';

/** One connection's frames held by the host under a flood. */
export interface HeldConnection {
  readonly connectionId: string;
  readonly frames: number;
  /** Frames of it arriving per second (over the last second). */
  readonly perSecond: number;
}

/** App → host. Hosts ignore what their capabilities do not cover. */
export type AppMessage =
  | { readonly type: 'hello'; readonly protocolVersion: number }
  | { readonly type: 'connect'; readonly url: string; readonly protocols: readonly string[] }
  | { readonly type: 'disconnect'; readonly connectionId: string; readonly code?: number; readonly reason?: string }
  | { readonly type: 'send-frame'; readonly connectionId: string; readonly opcode: Opcode; readonly data: Uint8Array }
  /** Turn the host's debugger capture mode on or off (hosts with `debuggerCapture`). */
  | { readonly type: 'set-debugger-capture'; readonly on: boolean }
  /** Send what is held (`held`) now, flood or not. */
  | { readonly type: 'show-held' }
  /** Act on the page (hosts with `frameActions`); the host answers with `frame-action-result` and the same `requestId`. */
  | {
      readonly type: 'frame-action';
      readonly requestId: number;
      readonly action: FrameActionKind;
      readonly connectionId: string;
      readonly opcode: Opcode;
      readonly data: Uint8Array;
    }
  /** The intercept rules now (hosts with `intercept`; the enabled ones, [] clears them and forwards every held frame). */
  | { readonly type: 'set-intercept-rules'; readonly rules: readonly InterceptRuleSpec[] }
  /** Act on held frames (hosts with `intercept`); answered with `frame-action-result` and the same `requestId`. */
  | {
      readonly type: 'hold-action';
      readonly requestId: number;
      readonly action: HoldActionKind;
      readonly connectionId: string;
      readonly direction: Direction;
      readonly seq: number;
      /** `edit` only: the new frame. */
      readonly opcode?: Opcode;
      readonly data?: Uint8Array;
    };

export type HostMessageType = HostMessage['type'];
export type AppMessageType = AppMessage['type'];

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isOptionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

export function isWireFrame(v: unknown): v is WireFrame {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return (
    isString(f.connectionId) &&
    (f.direction === 'sent' || f.direction === 'received') &&
    isNumber(f.time) &&
    (f.opcode === 'text' || f.opcode === 'binary') &&
    f.data instanceof Uint8Array
  );
}

export function isLostFrame(v: unknown): v is LostFrame {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return (
    isString(f.connectionId) &&
    (f.direction === 'sent' || f.direction === 'received') &&
    isNumber(f.time) &&
    (f.opcode === 'text' || f.opcode === 'binary') &&
    isNumber(f.size) &&
    f.size >= 0 &&
    isString(f.reason)
  );
}

const isRate = (v: unknown): v is number => isNumber(v) && v >= 0;

function isHeldConnection(v: unknown): v is HeldConnection {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return isString(c.connectionId) && isRate(c.frames) && isRate(c.perSecond);
}

/** Shape check for a message from an untrusted host side (a page, a port). */
export function isHostMessage(v: unknown): v is HostMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  switch (m.type) {
    case 'hello':
      return isNumber(m.protocolVersion) && isString(m.host);
    case 'frames':
      return Array.isArray(m.frames) && m.frames.every(isWireFrame);
    case 'frames-packed':
      return isPackedFrames(m.packed);
    case 'connection-opening':
      return (
        isString(m.connectionId) &&
        isString(m.url) &&
        isNumber(m.time) &&
        isOptionalString(m.documentUrl) &&
        isOptionalString(m.documentOrigin) &&
        (m.seenFrom === undefined || isNumber(m.seenFrom))
      );
    case 'debugger-capture':
      return (
        (m.state === 'off' || m.state === 'starting' || m.state === 'on' || m.state === 'error') && isString(m.message)
      );
    case 'uncaptured':
      return (
        isString(m.kind) &&
        isString(m.url) &&
        isNumber(m.time) &&
        isString(m.reason) &&
        isOptionalString(m.documentUrl) &&
        isOptionalString(m.documentOrigin)
      );
    case 'connection-opened':
      return (
        isString(m.connectionId) &&
        isString(m.url) &&
        isString(m.protocol) &&
        isString(m.extensions) &&
        isNumber(m.time)
      );
    case 'connection-closed':
      return (
        isString(m.connectionId) &&
        isNumber(m.code) &&
        isString(m.reason) &&
        typeof m.wasClean === 'boolean' &&
        isNumber(m.time)
      );
    case 'connection-error':
      return isString(m.connectionId) && isString(m.message) && isNumber(m.time);
    case 'dropped':
      return isNumber(m.count) && m.count >= 0 && isString(m.reason);
    case 'held':
      return (
        isNumber(m.frames) &&
        m.frames >= 0 &&
        isNumber(m.bytes) &&
        m.bytes >= 0 &&
        (m.arriving === undefined || isRate(m.arriving)) &&
        (m.heldPerSecond === undefined || isRate(m.heldPerSecond)) &&
        (m.connections === undefined || (Array.isArray(m.connections) && m.connections.every(isHeldConnection)))
      );
    case 'tail':
      return Array.isArray(m.frames) && m.frames.every(isWireFrame);
    case 'navigated':
      return (
        isString(m.url) &&
        isNumber(m.time) &&
        (m.stay === undefined || (Array.isArray(m.stay) && m.stay.every(isString)))
      );
    case 'page-actions':
      return typeof m.allowed === 'boolean';
    case 'lost-frames':
      return Array.isArray(m.frames) && m.frames.every(isLostFrame);
    case 'frame-action-result':
      return isNumber(m.requestId) && typeof m.ok === 'boolean' && isOptionalString(m.error);
    case 'hold-state':
      return (
        isString(m.connectionId) &&
        (m.direction === 'sent' || m.direction === 'received') &&
        isNumber(m.time) &&
        [m.held, m.heldBytes, m.head, m.forwarded, m.dropped, m.lost].every((v) => isNumber(v) && v >= 0) &&
        isOptionalString(m.why)
      );
    default:
      return false;
  }
}
