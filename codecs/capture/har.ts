/**
 * HAR 1.2 files with WebSocket messages, both ways.
 *
 * Reading: Chrome DevTools writes each WebSocket as an entry with `_resourceType:
 * 'websocket'` and `_webSocketMessages: [{ type: 'send'|'receive', time, opcode, data }]`,
 * `time` in seconds since the epoch, `data` the text for opcode 1 and base64 for opcode 2.
 * mitmproxy writes the same fields. Other tools vary them: the opcode as "text" / "binary"
 * or absent, the direction as other words or a `fromClient` flag, the time in milliseconds
 * or as an ISO date, `encoding: "base64"` beside the data (see directionOf, timeOf,
 * opcodeOf).
 * Malformed input is data: every problem becomes an error with its entry index and
 * everything that parsed is kept. Nothing throws.
 *
 * Writing: entries Chrome's "Import HAR file" accepts, plus two `_wirescope*` fields Chrome
 * ignores, so that our own round trip keeps connection ids and text opcodes exactly.
 */
import { decodeUtf8, findInvalidUtf8 } from '../core/utf8.js';
import type { ConnectionInfo, Direction, WireFrame } from './types.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';

export interface HarError {
  /** Index in `log.entries`; -1 for problems with the file as a whole. */
  readonly entryIndex: number;
  /** Index in the entry's `_webSocketMessages`, when one message is at fault. */
  readonly messageIndex?: number;
  readonly message: string;
}

export interface ParsedHar {
  readonly connections: ConnectionInfo[];
  /** Every connection's frames, sorted by time (stable: equal times keep file order). */
  readonly frames: WireFrame[];
  readonly errors: HarError[];
}

export interface BuildHarOptions {
  /** `log.creator`: a name (`'wirescope'`), or name and version; defaults fill the rest. */
  readonly creator?: string | { readonly name?: string; readonly version?: string };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const TEXT_OPCODE = 1;
const BINARY_OPCODE = 2;

export function parseHar(text: string): ParsedHar {
  const connections: ConnectionInfo[] = [];
  const frames: WireFrame[] = [];
  const errors: HarError[] = [];
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    errors.push({ entryIndex: -1, message: `not a HAR file: the text is not JSON (${(e as Error).message})` });
    return { connections, frames, errors };
  }
  const entries = isObject(root) && isObject(root.log) ? root.log.entries : undefined;
  if (!Array.isArray(entries)) {
    errors.push({ entryIndex: -1, message: 'not a HAR file: log.entries is missing or not an array' });
    return { connections, frames, errors };
  }
  const usedIds = new Set<string>();
  entries.forEach((entry, entryIndex) => {
    if (!isObject(entry)) {
      errors.push({ entryIndex, message: 'entry is not an object' });
      return;
    }
    const messages = entry._webSocketMessages;
    if (messages === undefined && entry._resourceType !== 'websocket') return; // plain HTTP
    const request = isObject(entry.request) ? entry.request : {};
    const response = isObject(entry.response) ? entry.response : {};
    if (typeof request.url !== 'string') errors.push({ entryIndex, message: 'entry has no request.url' });
    if (messages !== undefined && !Array.isArray(messages))
      errors.push({ entryIndex, message: '_webSocketMessages is not an array' });
    const connectionId = pickConnectionId(entry._wirescopeConnectionId, entryIndex, usedIds);
    const entryFrames = Array.isArray(messages) ? readMessages(messages, connectionId, entryIndex, errors) : [];
    const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN;
    connections.push({
      connectionId,
      url: typeof request.url === 'string' ? request.url : '',
      // The negotiated values are the server's answer; the request only lists offers.
      protocol: headerValue(response.headers, 'sec-websocket-protocol'),
      extensions: headerValue(response.headers, 'sec-websocket-extensions'),
      // An empty Sec-WebSocket-Extensions header records "none negotiated" (no header: not recorded).
      ...(hasHeader(response.headers, 'sec-websocket-extensions') &&
      headerValue(response.headers, 'sec-websocket-extensions') === ''
        ? { extensionsRecorded: true }
        : {}),
      time: Number.isFinite(started) ? started : (entryFrames[0]?.time ?? 0),
    });
    for (const f of entryFrames) frames.push(f); // no spread: 100k+ frames would overflow the argument stack
  });
  // Array.prototype.sort is stable (ES2019), so frames with equal times keep file order.
  frames.sort((a, b) => a.time - b.time);
  return { connections, frames, errors };
}

/**
 * The message's direction. Chrome and mitmproxy write `type: "send" | "receive"`; other
 * tools write `"sent" | "received"`, `"outgoing" | "incoming"`, or a `fromClient` /
 * `direction` field beside a `type` that names the frame kind.
 */
function directionOf(m: Json): Direction | null {
  const words: Record<string, Direction> = {
    send: 'sent',
    sent: 'sent',
    outgoing: 'sent',
    client: 'sent',
    receive: 'received',
    received: 'received',
    incoming: 'received',
    server: 'received',
  };
  for (const value of [m.type, m.direction]) {
    if (typeof value === 'string' && words[value.toLowerCase()]) return words[value.toLowerCase()];
  }
  if (typeof m.fromClient === 'boolean') return m.fromClient ? 'sent' : 'received';
  if (typeof m.from_client === 'boolean') return m.from_client ? 'sent' : 'received';
  return null;
}

/**
 * ms since the epoch. HAR tools write seconds (Chrome, mitmproxy: fractional seconds);
 * a number past 1e11 can only be milliseconds (1e11 s is the year 5138); an ISO date string
 * is read as a date.
 */
function timeOf(time: unknown): number | null {
  if (typeof time === 'number' && Number.isFinite(time)) return time > 1e11 ? time : time * 1000;
  if (typeof time === 'string') {
    const parsed = Date.parse(time);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/**
 * Text or binary, or null for control frames. `opcode` 1 / 2 (Chrome, mitmproxy) or
 * "text" / "binary"; without one, a `type` naming the kind, or `encoding: "base64"` for
 * binary and text otherwise.
 */
function opcodeOf(m: Json): 'text' | 'binary' | null {
  const kind = (v: unknown): 'text' | 'binary' | null | undefined =>
    v === TEXT_OPCODE || v === 'text'
      ? 'text'
      : v === BINARY_OPCODE || v === 'binary'
        ? 'binary'
        : v === undefined
          ? undefined
          : null;
  const byOpcode = kind(m.opcode);
  // `_wirescopeOpcode: 'text'` marks a text frame we had to write as binary (see buildHar).
  if (byOpcode === 'binary' && m._wirescopeOpcode === 'text') return 'text';
  if (byOpcode !== undefined) return byOpcode;
  const byType = kind(typeof m.type === 'string' ? m.type.toLowerCase() : undefined);
  if (byType) return byType;
  return m.encoding === 'base64' ? 'binary' : 'text';
}

function readMessages(messages: unknown[], connectionId: string, entryIndex: number, errors: HarError[]): WireFrame[] {
  const frames: WireFrame[] = [];
  const skipped = new Map<string, number>();
  for (const [messageIndex, m] of messages.entries()) {
    const fail = (message: string): void => {
      errors.push({ entryIndex, messageIndex, message: `message ${messageIndex}: ${message}` });
    };
    if (!isObject(m)) {
      fail('not an object');
      continue;
    }
    // Chrome records failures as { type: 'error', opcode: -1, data: <reason> }: not a frame.
    if (m.type === 'error') {
      skipped.set('error events', (skipped.get('error events') ?? 0) + 1);
      continue;
    }
    const direction = directionOf(m);
    if (direction === null) {
      fail(`unknown type ${JSON.stringify(m.type)} (expected "send" or "receive")`);
      continue;
    }
    const time = timeOf(m.time);
    if (time === null) {
      fail('time is not a number');
      continue;
    }
    if (typeof m.data !== 'string') {
      fail('data is not a string');
      continue;
    }
    const opcode = opcodeOf(m);
    // Some tools also record control frames (8 close, 9 ping, 10 pong); frames here are data frames only.
    if (opcode === null) {
      const key = `opcode ${String(m.opcode)} messages`;
      skipped.set(key, (skipped.get(key) ?? 0) + 1);
      continue;
    }
    // Binary data is base64 (Chrome, mitmproxy); `encoding: "base64"` marks base64 text too.
    const base64 =
      m.encoding === 'base64' || m.opcode === BINARY_OPCODE || m.opcode === 'binary' || opcode === 'binary';
    let data: Uint8Array;
    if (!base64) data = new TextEncoder().encode(m.data);
    else {
      const decoded = decodeBase64(m.data);
      if (!decoded.ok) {
        fail(
          `${opcode === 'text' ? 'text' : 'binary'} data is not valid base64: ${decoded.error} at character ${decoded.offset}`,
        );
        continue;
      }
      data = decoded.bytes;
    }
    frames.push(
      m._wirescopeOrigin === 'wirescope'
        ? { connectionId, direction, time, opcode, data, origin: 'wirescope' }
        : { connectionId, direction, time, opcode, data },
    );
  }
  for (const [what, count] of skipped) {
    errors.push({ entryIndex, message: `skipped ${count} ${what}: wirescope shows text and binary data frames only` });
  }
  return frames;
}

/** Our own id when the file came from wirescope and it is still unique, else `har-<entry>`. */
function pickConnectionId(saved: unknown, entryIndex: number, used: Set<string>): string {
  let id = typeof saved === 'string' && saved !== '' && !used.has(saved) ? saved : `har-${entryIndex}`;
  for (let n = 2; used.has(id); n++) id = `har-${entryIndex}-${n}`;
  used.add(id);
  return id;
}

function hasHeader(headers: unknown, lowerName: string): boolean {
  return (
    Array.isArray(headers) &&
    headers.some(
      (h) =>
        isObject(h) && typeof h.name === 'string' && h.name.toLowerCase() === lowerName && typeof h.value === 'string',
    )
  );
}

function headerValue(headers: unknown, lowerName: string): string {
  if (!Array.isArray(headers)) return '';
  for (const h of headers) {
    if (isObject(h) && typeof h.name === 'string' && h.name.toLowerCase() === lowerName && typeof h.value === 'string')
      return h.value;
  }
  return '';
}

export function buildHar(
  connections: readonly ConnectionInfo[],
  frames: readonly WireFrame[],
  options: BuildHarOptions = {},
): string {
  const byConnection = new Map<string, WireFrame[]>();
  for (const c of connections) byConnection.set(c.connectionId, []);
  const orphans: string[] = [];
  for (const f of frames) {
    let list = byConnection.get(f.connectionId);
    if (!list) {
      list = [];
      byConnection.set(f.connectionId, list);
      orphans.push(f.connectionId);
    }
    list.push(f);
  }
  // Frames whose connection we were not told about still get an entry (HAR needs a URL;
  // `.invalid` is reserved, RFC 2606, so it can never name a real server).
  const all: ConnectionInfo[] = [
    ...connections,
    ...orphans.map((connectionId) => ({
      connectionId,
      url: 'wss://unknown.invalid/',
      protocol: '',
      extensions: '',
      time: byConnection.get(connectionId)![0].time,
    })),
  ];
  const log = {
    version: '1.2',
    creator: creatorOf(options.creator),
    pages: [],
    entries: all.map((c) => harEntry(c, byConnection.get(c.connectionId) ?? [])),
  };
  return JSON.stringify({ log }, null, 2);
}

function harEntry(c: ConnectionInfo, frames: readonly WireFrame[]): Json {
  const start = Number.isFinite(c.time) ? c.time : (frames[0]?.time ?? 0);
  const last = frames.length ? frames[frames.length - 1].time : start;
  const duration = Math.max(0, last - start);
  const requestHeaders = [
    { name: 'Connection', value: 'Upgrade' },
    { name: 'Upgrade', value: 'websocket' },
    ...(c.protocol ? [{ name: 'Sec-WebSocket-Protocol', value: c.protocol }] : []),
  ];
  const responseHeaders = [
    { name: 'Connection', value: 'Upgrade' },
    { name: 'Upgrade', value: 'websocket' },
    ...(c.protocol ? [{ name: 'Sec-WebSocket-Protocol', value: c.protocol }] : []),
    // Written empty when none was negotiated (and that is known), so a re-import can tell it from "not recorded".
    ...(c.extensions || c.extensionsRecorded ? [{ name: 'Sec-WebSocket-Extensions', value: c.extensions }] : []),
  ];
  return {
    startedDateTime: isoTime(start),
    // HAR's `time` is the sum of the timings; the connection's life shows as `receive`, so
    // DevTools draws the socket as long as it carried frames.
    time: duration,
    request: {
      method: 'GET',
      url: c.url,
      httpVersion: 'HTTP/1.1',
      headers: requestHeaders,
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 101,
      statusText: 'Switching Protocols',
      httpVersion: 'HTTP/1.1',
      headers: responseHeaders,
      cookies: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 0, receive: duration },
    _resourceType: 'websocket',
    _wirescopeConnectionId: c.connectionId,
    _webSocketMessages: frames.map(harMessage),
  };
}

function harMessage(f: WireFrame): Json {
  const type = f.direction === 'sent' ? 'send' : 'receive';
  const time = f.time / 1000;
  // The WebSocket protocol makes every text frame valid UTF-8 (RFC 6455 §8.1), so a text
  // frame is written as its text. If a capture still holds invalid bytes, writing them as
  // text would replace them with U+FFFD and lose them; they are written as binary (opcode 2,
  // base64) instead, with `_wirescopeOpcode: 'text'` so wirescope reads them back as text.
  // A frame wirescope itself sent or delivered keeps that mark in `_wirescopeOrigin` (other readers ignore it).
  const origin: Json = f.origin === 'wirescope' ? { _wirescopeOrigin: 'wirescope' } : {};
  if (f.opcode === 'text' && findInvalidUtf8(f.data, 0, f.data.length) < 0) {
    return { type, time, opcode: TEXT_OPCODE, data: decodeUtf8(f.data, 0, f.data.length), ...origin };
  }
  const message: Json = { type, time, opcode: BINARY_OPCODE, data: encodeBase64(f.data), ...origin };
  if (f.opcode === 'text') message._wirescopeOpcode = 'text';
  return message;
}

function creatorOf(creator: BuildHarOptions['creator']): { name: string; version: string } {
  const given = typeof creator === 'string' ? { name: creator } : (creator ?? {});
  // HAR 1.2 requires both strings; 'unknown' beats inventing a version number.
  return { name: given.name || 'wirescope', version: given.version || 'unknown' };
}

function isoTime(ms: number): string {
  const d = new Date(Number.isFinite(ms) ? ms : 0);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}
