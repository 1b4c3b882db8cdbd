/**
 * One proxied connection: the client's WebSocket (accepted by the proxy's server) and its
 * own upstream WebSocket, both `ws`. The upstream is opened first, with the client's
 * Origin, Cookie, Authorization, User-Agent and offered subprotocols, so the subprotocol
 * the upstream picks is the one the client is given. permessage-deflate is negotiated on
 * each leg on its own (both legs offer / accept it).
 *
 * Messages, pings and pongs pass through in order; closes pass their code and reason. A
 * side that cannot take more (over `highWater` bytes sent and not yet written) pauses the
 * other side's reading, so memory stays bounded. An upstream that dies (abnormal close,
 * 1006) closes the client with 1014 and why; a client whose frames break the protocol is
 * closed by `ws` with 1002 / 1007 and its upstream with 1001.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { type WebSocketServer } from 'ws';
import type { Hub } from './hub.js';
import { type DirectionLegs, directionLegs } from './leg-bytes.js';
import { createWireMeter } from './wire-meter.js';

export interface RelayContext {
  readonly target: URL;
  readonly insecure: boolean;
  readonly hub: Hub;
  readonly server: WebSocketServer;
  /** The subprotocol to answer each accepted client with (read by the server's handleProtocols). */
  readonly chosenProtocol: WeakMap<IncomingMessage, string>;
  readonly now: () => number;
  readonly nextId: () => string;
  /** Bytes queued on one side before the other side's reading pauses (default 4 MiB). */
  readonly highWater?: number;
  readonly log?: (line: string) => void;
}

const FORWARDED_HEADERS = ['cookie', 'authorization', 'user-agent'];
/** Close codes a close frame may carry (RFC 6455 7.4; ws refuses the others). */
const sendable = (code: number): boolean =>
  (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

/** The upstream URL: the target's path, then the client's path appended, queries joined. */
export function upstreamUrl(target: URL, requestUrl: string): string {
  const request = new URL(requestUrl, 'http://proxy.invalid');
  const url = new URL(target.href);
  const base = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  url.pathname = request.pathname === '/' ? url.pathname : base + request.pathname;
  const query = [url.search.slice(1), request.search.slice(1)].filter(Boolean).join('&');
  url.search = query ? `?${query}` : '';
  return url.href;
}

export function relayUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, context: RelayContext): void {
  const { hub, now } = context;
  const highWater = context.highWater ?? 4 * 1024 * 1024;
  const connectionId = context.nextId();
  const url = upstreamUrl(context.target, request.url ?? '/');
  const offered = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  hub.opening(connectionId, url, now());
  const upstream = new WebSocket(url, offered, {
    headers,
    ...(typeof request.headers.origin === 'string' ? { origin: request.headers.origin } : {}),
    perMessageDeflate: true,
    rejectUnauthorized: !context.insecure,
    autoPong: false,
  });
  let accepted = false;
  // Each message's bytes on both legs (leg-bytes.ts), measured on the sockets (wire-meter.ts).
  const sentLegs = directionLegs(connectionId, 'sent', (f) => hub.frame(f));
  const receivedLegs = directionLegs(connectionId, 'received', (f) => hub.frame(f));
  // The upstream socket is metered from 'open' on, not at 'upgrade': a 'data' listener added
  // before ws's own would take the bytes that came with the 101 response (ws hands them back to
  // the socket after 'upgrade'), and ws would never see a server's first message.
  let upstreamSocket: Duplex | null = null;
  upstream.once('upgrade', (response) => {
    upstreamSocket = response.socket;
  });
  socket.on('error', () => upstream.terminate());
  socket.once('close', () => {
    if (!accepted) upstream.terminate();
  });

  const refuse = (status: number, text: string): void => {
    if (socket.destroyed) return;
    const body = `${text}\n`;
    socket.end(
      `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  upstream.once('unexpected-response', (_req, response) => {
    const status = response.statusCode ?? 502;
    hub.error(connectionId, `upstream answered the upgrade with HTTP ${status}`, now());
    refuse(status >= 400 ? status : 502, `wirescope proxy: upstream ${url} answered HTTP ${status}`);
    upstream.terminate();
  });
  upstream.on('error', (error) => {
    if (accepted) return; // the close handler reports it
    hub.error(connectionId, `upstream: ${error.message}`, now());
    refuse(502, `wirescope proxy: cannot reach upstream ${url}: ${error.message}`);
  });

  upstream.once('open', () => {
    if (socket.destroyed) {
      upstream.close(1001, 'client went away');
      return;
    }
    if (upstreamSocket) meterSocket(upstreamSocket, receivedLegs, sentLegs);
    upstream.pause();
    context.chosenProtocol.set(request, upstream.protocol);
    context.server.handleUpgrade(request, socket, head, (client) => {
      accepted = true;
      hub.opened({
        connectionId,
        url,
        protocol: client.protocol,
        extensions: client.extensions,
        ...(client.extensions === '' ? { extensionsRecorded: true } : {}),
        upstreamExtensions: upstream.extensions,
        time: now(),
      });
      meterSocket(socket, sentLegs, receivedLegs);
      pipe(client, upstream, sentLegs);
      pipe(upstream, client, receivedLegs);
      endTogether(client, upstream);
      upstream.resume();
    });
  });

  /**
   * Forwards `from`'s messages and pings to `to`, pausing `from` while `to` is backed up.
   * The messages one read of `from` holds (often hundreds under load) leave in one write:
   * `to`'s socket is corked until the end of the tick, so each message costs no system call
   * of its own (one write per frame was about half of the proxy's CPU).
   */
  function pipe(from: WebSocket, to: WebSocket, legs: DirectionLegs): void {
    let queued = 0;
    let corked: Duplex | null = null;
    const uncork = (): void => {
      const socket = corked;
      corked = null;
      socket?.uncork();
    };
    const corkTick = (): void => {
      if (corked !== null) return;
      const socket = (to as unknown as { _socket?: Duplex })._socket;
      if (!socket || socket.destroyed) return;
      corked = socket;
      socket.cork();
      process.nextTick(uncork);
    };
    // Reading resumes when the other side has room and the recording has caught up.
    const resumeIfRoom = (): void => {
      if (queued < highWater / 2 && from.isPaused && to.readyState === WebSocket.OPEN && !hub.backlogged())
        from.resume();
    };
    const written = (size: number) => () => {
      queued -= size;
      resumeIfRoom();
    };
    from.on('message', (data: Buffer, isBinary: boolean) => {
      const forwarded = to.readyState === WebSocket.OPEN;
      legs.arrived(now(), isBinary ? 'binary' : 'text', data, forwarded);
      if (!forwarded) return;
      queued += data.length;
      corkTick();
      to.send(data, { binary: isBinary }, written(data.length));
      if (queued > highWater && !from.isPaused) from.pause();
      if (hub.backlogged() && !from.isPaused) {
        from.pause();
        hub.whenCaughtUp(resumeIfRoom);
      }
    });
    from.on('ping', (data: Buffer) => {
      if (to.readyState === WebSocket.OPEN) to.ping(data);
    });
    from.on('pong', (data: Buffer) => {
      if (to.readyState === WebSocket.OPEN) to.pong(data);
    });
  }

  function endTogether(client: WebSocket, up: WebSocket): void {
    let clientError = '';
    /** The close code ws sent the client when its frames broke the protocol (its own 'close' says 1006). */
    let clientErrorCode: number | null = null;
    let upstreamError = '';
    client.on('error', (e) => {
      clientError = e.message;
      clientErrorCode = closeCodeSent(e);
    });
    up.on('error', (e) => {
      upstreamError = e.message;
    });
    client.once('close', (code: number, reasonBytes: Buffer) => {
      const reason = reasonBytes.toString();
      sentLegs.flush();
      receivedLegs.flush();
      hub.closed(
        connectionId,
        clientErrorCode ?? code,
        clientError ? `client: ${clientError}` : reason,
        code !== 1006 && !clientError,
        now(),
      );
      if (up.readyState === WebSocket.CLOSED || up.readyState === WebSocket.CLOSING) return;
      if (clientError) up.close(1001, truncateReason(`client connection failed: ${clientError}`));
      else if (sendable(code)) up.close(code, reason);
      else if (code === 1005) up.close();
      else up.close(1001, 'client connection lost');
    });
    up.once('close', (code: number, reasonBytes: Buffer) => {
      const reason = reasonBytes.toString();
      if (client.readyState === WebSocket.CLOSED || client.readyState === WebSocket.CLOSING) return;
      if (code === 1006 || upstreamError)
        client.close(
          1014,
          truncateReason(
            `upstream connection lost${upstreamError ? `: ${upstreamError}` : ' (closed without a close frame)'}`,
          ),
        );
      else if (sendable(code)) client.close(code, reason);
      else if (code === 1005) client.close();
      else client.close(1014, truncateReason(`upstream closed with ${code}`));
    });
  }
}

/**
 * Meters one leg's socket: what is read (messages arriving on this leg) and what `ws`
 * writes (messages leaving on it). TLS sockets are metered above TLS: WebSocket bytes.
 */
function meterSocket(socket: Duplex, arriving: DirectionLegs, leaving: DirectionLegs): void {
  const reading = createWireMeter((bytes) => arriving.inMeasured(bytes));
  const writing = createWireMeter((bytes) => leaving.outMeasured(bytes));
  socket.on('data', (chunk: Buffer) => reading.push(chunk));
  const write = socket.write;
  socket.write = function meteredWrite(this: Duplex, chunk: unknown) {
    if (chunk instanceof Uint8Array) writing.push(chunk);
    else if (typeof chunk === 'string') writing.push(Buffer.from(chunk));
    // biome-ignore lint/complexity/noArguments: passed on as they came
    return (write as (...args: unknown[]) => boolean).apply(this, arguments as unknown as unknown[]);
  } as Duplex['write'];
}

/**
 * The close code `ws` sends a peer whose frames it refused (1002, 1007, 1009): kept on the
 * error under a symbol ws does not export, found by its description.
 */
function closeCodeSent(error: Error): number | null {
  for (const key of Object.getOwnPropertySymbols(error)) {
    if (key.description !== 'status-code') continue;
    const code = (error as unknown as Record<symbol, unknown>)[key];
    return typeof code === 'number' && sendable(code) ? code : null;
  }
  return null;
}

/** A close reason is at most 123 bytes of UTF-8. */
function truncateReason(reason: string): string {
  let text = reason;
  while (Buffer.byteLength(text) > 123) text = text.slice(0, -1);
  return text;
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    502: 'Bad Gateway',
  };
  return known[status] ?? 'Error';
}
