/**
 * Debugger capture (Chrome, opt-in): the DevTools protocol's Network.webSocket* events of one
 * target session → the app's HostMessages. Pure: no chrome.*, the clock passed in.
 *
 * - Connection ids are `debugger:<session>:<requestId>`: never a hook's (`<documentId>:<n>`).
 * - Text frames (opcode 1) arrive as their text and are UTF-8 encoded (the exact wire bytes: a
 *   text frame is valid UTF-8); binary frames (opcode 2) as base64, decoded. Control frames
 *   (ping, pong, close: opcodes 8-10) are not WebSocket messages and are skipped, as the
 *   page hook never sees them either.
 * - A frame of a socket opened before capture began opens a connection with an empty URL and
 *   `seenFrom` (when this session began: frames before it were not seen), so the panel says so.
 * - The protocol reports no close code: closes come out as 1005 (no status), reason
 *   "closed (the debugger reports no code)".
 * - Frame times are wall-clock ms: the handshake's `wallTime` minus its monotonic
 *   `timestamp` gives the offset; before one is known, `now()`.
 */
import { base64Bytes } from '../../codecs/core/base64.js';
import type { HostMessage, WireFrame } from '../../inspector-app/src/protocol/messages.js';

export const DEBUGGER_CLOSE_REASON = 'closed (the debugger reports no code)';

/** Longest URL or header value kept (a hostile worker can make them megabytes); cut, marked with '…'. */
const MAX_STRING = 4096;
const cap = (s: unknown): string => {
  const t = typeof s === 'string' ? s : '';
  return t.length > MAX_STRING ? `${t.slice(0, MAX_STRING)}…` : t;
};

interface SocketSeen {
  readonly connectionId: string;
  closed: boolean;
}

export interface TargetDescription {
  /** The target's kind as the protocol names it ('worker', 'shared_worker', 'service_worker', …). */
  readonly type: string;
  /** The target's URL (a worker's script). */
  readonly url: string;
}

export class CdpSockets {
  private readonly sockets = new Map<string, SocketSeen>();
  /** Wall-clock ms minus monotonic ms, once a handshake told both. */
  private offsetMs: number | null = null;
  private readonly encoder = new TextEncoder();
  /** When this session began seeing the target's sockets. */
  private readonly startedAt: number;

  constructor(
    private readonly session: string,
    private readonly target: TargetDescription,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
  }

  /** HostMessages for one protocol event (an empty list for anything else). */
  event(method: string, params: Record<string, unknown>): HostMessage[] {
    if (!method.startsWith('Network.webSocket')) return [];
    const requestId = typeof params.requestId === 'string' ? params.requestId : null;
    if (requestId === null) return [];
    const out: HostMessage[] = [];
    const time = this.time(params.timestamp);
    switch (method) {
      case 'Network.webSocketCreated':
        if (!this.sockets.has(requestId)) out.push(this.opening(requestId, cap(params.url), time));
        break;
      case 'Network.webSocketWillSendHandshakeRequest':
        if (typeof params.wallTime === 'number' && typeof params.timestamp === 'number')
          this.offsetMs = params.wallTime * 1000 - params.timestamp * 1000;
        break;
      case 'Network.webSocketHandshakeResponseReceived': {
        const s = this.socket(requestId, time, out);
        const response = (params.response ?? {}) as { headers?: Record<string, unknown> };
        const header = (name: string): string => {
          for (const [k, v] of Object.entries(response.headers ?? {})) if (k.toLowerCase() === name) return cap(v);
          return '';
        };
        const url = this.urls.get(requestId) ?? '';
        out.push({
          type: 'connection-opened',
          connectionId: s.connectionId,
          url,
          protocol: header('sec-websocket-protocol'),
          extensions: header('sec-websocket-extensions'),
          time,
        });
        break;
      }
      case 'Network.webSocketFrameSent':
      case 'Network.webSocketFrameReceived': {
        const frame = this.frame(
          requestId,
          method === 'Network.webSocketFrameSent' ? 'sent' : 'received',
          params.response,
          time,
          out,
        );
        if (frame) out.push({ type: 'frames', frames: [frame] });
        break;
      }
      case 'Network.webSocketFrameError': {
        const s = this.socket(requestId, time, out);
        out.push({
          type: 'connection-error',
          connectionId: s.connectionId,
          message: cap(params.errorMessage) || 'WebSocket error',
          time,
        });
        break;
      }
      case 'Network.webSocketClosed': {
        const s = this.socket(requestId, time, out);
        if (!s.closed)
          out.push({
            type: 'connection-closed',
            connectionId: s.connectionId,
            code: 1005,
            reason: DEBUGGER_CLOSE_REASON,
            wasClean: true,
            time,
          });
        s.closed = true;
        break;
      }
      default:
        break;
    }
    return out;
  }

  private readonly urls = new Map<string, string>();

  private opening(requestId: string, url: string, time: number, predates = false): HostMessage {
    const connectionId = `debugger:${this.session}:${requestId}`;
    this.sockets.set(requestId, { connectionId, closed: false });
    this.urls.set(requestId, url);
    const opening = {
      type: 'connection-opening',
      connectionId,
      url,
      time,
      documentUrl: `${this.target.type} ${cap(this.target.url)}`,
    } as const;
    return predates ? { ...opening, seenFrom: this.startedAt } : opening;
  }

  /** The socket for `requestId`, opened (empty URL, seen from the session's start) when it predates the capture. */
  private socket(requestId: string, time: number, out: HostMessage[]): SocketSeen {
    if (!this.sockets.has(requestId)) out.push(this.opening(requestId, '', time, true));
    return this.sockets.get(requestId)!;
  }

  private frame(
    requestId: string,
    direction: 'sent' | 'received',
    response: unknown,
    time: number,
    out: HostMessage[],
  ): WireFrame | null {
    const r = (response ?? {}) as { opcode?: unknown; payloadData?: unknown };
    if (r.opcode !== 1 && r.opcode !== 2) return null;
    const payload = typeof r.payloadData === 'string' ? r.payloadData : '';
    const data = r.opcode === 1 ? this.encoder.encode(payload) : base64Bytes(payload);
    const s = this.socket(requestId, time, out);
    if (data === null) {
      out.push({
        type: 'dropped',
        count: 1,
        reason: 'the debugger sent a binary frame whose base64 could not be read',
      });
      return null;
    }
    return { connectionId: s.connectionId, direction, time, opcode: r.opcode === 1 ? 'text' : 'binary', data };
  }

  private time(timestamp: unknown): number {
    return this.offsetMs !== null && typeof timestamp === 'number' ? timestamp * 1000 + this.offsetMs : this.now();
  }
}
