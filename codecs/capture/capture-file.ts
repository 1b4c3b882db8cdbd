/**
 * wirescope's own capture file: every connection and frame, bytes exact, times exact.
 *
 * Format (UTF-8 JSON, one connection / frame per line so large captures diff and grep well):
 *
 *   { "format": "wirescope-capture", "version": 1,
 *     "connections": [ { "connectionId", "url", "protocol", "extensions", ["extensionsRecorded": true,] "time" } ],
 *     "frames": [ { "c": connectionId, "d": "s" | "r", "t": time, "o": "t" | "b", "b64": base64
 *                   [, "w": [client, upstream]] [, "origin": "wirescope"] } ] }
 *
 * `time` / `t` are ms since the epoch as JSON numbers (JavaScript prints the shortest text
 * that reads back to the same double, so times survive exactly). `b64` is standard base64
 * with padding, text frames included, so invalid UTF-8 in a text frame survives too.
 * `extensions` is the negotiated Sec-WebSocket-Extensions; "" reads as "not recorded" unless
 * `extensionsRecorded` is true, which says none was negotiated (optional: older files and
 * readers are unaffected, the version stays 1).
 * `w` (optional, written by `wirescope proxy`) is the bytes the message took on the client's
 * and on the upstream's leg (WireFrame.legBytes); null for a leg it did not cross.
 * `origin` "wirescope" marks a frame wirescope itself sent or delivered to the page (optional,
 * absent for the page's own traffic; the version stays 1).
 * `format` is written first so `detectCaptureKind` finds it in the file's first bytes.
 */
import type { ConnectionInfo, LegBytes, WireFrame } from './types.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';
import { isLinesLayout } from './capture-lines.js';
import { isRecordsLayout, nextRecord, RECORDS_HEADER } from './capture-records.js';

export const CAPTURE_FORMAT = 'wirescope-capture';
export const CAPTURE_VERSION = 1;

export interface CaptureError {
  /** Where in the file: '' for the file as a whole, else e.g. 'frames[3]'. */
  readonly path: string;
  readonly message: string;
}

export interface ParsedCapture {
  readonly connections: ConnectionInfo[];
  /** In file order (the order they were captured). */
  readonly frames: WireFrame[];
  readonly errors: CaptureError[];
}

export function serializeCapture(connections: readonly ConnectionInfo[], frames: readonly WireFrame[]): Uint8Array {
  const lines: string[] = [];
  lines.push(`{"format":${JSON.stringify(CAPTURE_FORMAT)},"version":${CAPTURE_VERSION},"connections":[`);
  connections.forEach((c, i) => {
    const { connectionId, url, protocol, extensions, time } = c;
    const recorded = c.extensionsRecorded ? { extensionsRecorded: true } : {};
    lines.push(
      JSON.stringify({ connectionId, url, protocol, extensions, ...recorded, time }) +
        (i < connections.length - 1 ? ',' : ''),
    );
  });
  lines.push('],"frames":[');
  frames.forEach((f, i) => {
    const frame = {
      c: f.connectionId,
      d: f.direction === 'sent' ? 's' : 'r',
      t: f.time,
      o: f.opcode === 'text' ? 't' : 'b',
      b64: encodeBase64(f.data),
      ...(f.legBytes ? { w: [f.legBytes.client, f.legBytes.upstream] } : {}),
      ...(f.origin === 'wirescope' ? { origin: 'wirescope' } : {}),
    };
    lines.push(JSON.stringify(frame) + (i < frames.length - 1 ? ',' : ''));
  });
  lines.push(']}', '');
  return new TextEncoder().encode(lines.join('\n'));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function parseCapture(input: Uint8Array | string): ParsedCapture {
  const connections: ConnectionInfo[] = [];
  const frames: WireFrame[] = [];
  const errors: CaptureError[] = [];
  if (typeof input !== 'string' && isRecordsLayout(input)) return parseCaptureRecords(input);
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  if (isLinesLayout(text)) return parseCaptureLines(text);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    errors.push({ path: '', message: `not a wirescope capture: the file is not JSON (${(e as Error).message})` });
    return { connections, frames, errors };
  }
  if (!isObject(root) || root.format !== CAPTURE_FORMAT) {
    errors.push({ path: '', message: `not a wirescope capture: "format" is not "${CAPTURE_FORMAT}"` });
    return { connections, frames, errors };
  }
  if (root.version !== CAPTURE_VERSION) {
    errors.push({
      path: 'version',
      message: `unsupported capture version ${JSON.stringify(root.version)}: this build reads version ${CAPTURE_VERSION}`,
    });
    return { connections, frames, errors };
  }
  if (Array.isArray(root.connections)) {
    root.connections.forEach((c, i) => {
      const connection = readConnection(c);
      if (typeof connection === 'string') errors.push({ path: `connections[${i}]`, message: connection });
      else connections.push(connection);
    });
  } else errors.push({ path: 'connections', message: 'connections is missing or not an array' });
  const known = new Set(connections.map((c) => c.connectionId));
  if (Array.isArray(root.frames)) {
    root.frames.forEach((f, i) => {
      const frame = readFrame(f);
      if (typeof frame === 'string') {
        errors.push({ path: `frames[${i}]`, message: frame });
        return;
      }
      // Kept: the bytes are intact; only the connection's details are missing.
      if (!known.has(frame.connectionId))
        errors.push({
          path: `frames[${i}]`,
          message: `frame of unknown connection ${JSON.stringify(frame.connectionId)}`,
        });
      frames.push(frame);
    });
  } else errors.push({ path: 'frames', message: 'frames is missing or not an array' });
  return { connections, frames, errors };
}

/**
 * The line layout (capture-lines.ts): each line one connection, frame or close. A line that
 * does not parse (the last one of a recording cut short) is an error naming its byte
 * offset; every complete line before and after it is kept.
 */
function parseCaptureLines(text: string): ParsedCapture {
  const { connections, frames, errors, collect } = collector();
  const encoder = new TextEncoder();
  let offset = 0; // byte offset of the current line
  let lineNumber = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const lineBytes = encoder.encode(line).length;
    lineNumber++;
    if (lineNumber > 1 && line.trim() !== '') {
      const at = `line ${lineNumber}`;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        const last = end >= text.length || text.slice(end + 1).trim() === '';
        errors.push({
          path: at,
          message: last
            ? `the recording ends inside a line at byte ${offset} (cut short): read up to the last complete line`
            : `line at byte ${offset} is not JSON: skipped`,
        });
        record = undefined;
      }
      if (record !== undefined) collect(record, at);
    }
    offset += lineBytes + 1;
    start = end + 1;
  }
  return { connections, frames, errors };
}

/** Gathers the line layout's objects (also the records layout's JSON records), in file order. */
function collector() {
  const connections: ConnectionInfo[] = [];
  const frames: WireFrame[] = [];
  const errors: CaptureError[] = [];
  const known = new Set<string>();
  const addFrame = (frame: WireFrame, at: string): void => {
    if (!known.has(frame.connectionId))
      errors.push({ path: at, message: `frame of unknown connection ${JSON.stringify(frame.connectionId)}` });
    frames.push(frame);
  };
  const collect = (record: unknown, at: string): void => {
    if (isObject(record) && 'connection' in record) {
      const connection = readConnection(record.connection);
      if (typeof connection === 'string') errors.push({ path: at, message: connection });
      else if (!known.has(connection.connectionId)) {
        known.add(connection.connectionId);
        connections.push(connection);
      }
    } else if (isObject(record) && 'closed' in record) {
      // Closes are kept by the recorder for people reading the file; frames carry no state.
    } else {
      const frame = readFrame(record);
      if (typeof frame === 'string') errors.push({ path: at, message: frame });
      else addFrame(frame, at);
    }
  };
  return { connections, frames, errors, collect, addFrame };
}

/**
 * The records layout (capture-records.ts): binary frame records and JSON records. A record
 * cut short (the last one of a killed process's recording) or one that cannot be read is an
 * error naming its byte offset; every record before it is kept.
 */
function parseCaptureRecords(bytes: Uint8Array): ParsedCapture {
  const { connections, frames, errors, collect, addFrame } = collector();
  let offset = new TextEncoder().encode(RECORDS_HEADER).length;
  while (offset < bytes.length) {
    const at = `byte ${offset}`;
    const read = nextRecord(bytes, offset);
    if ('incomplete' in read) {
      errors.push({
        path: at,
        message: `the recording ends inside a record at byte ${offset} (cut short): read up to the last complete record`,
      });
      break;
    }
    if ('error' in read) {
      errors.push({ path: at, message: read.error });
      break;
    }
    const { record } = read;
    if (record.kind === 'frame') {
      const { connectionId, direction, opcode, time } = record;
      addFrame({ connectionId, direction, opcode, time, data: record.data.slice() }, at);
    } else {
      let value: unknown;
      try {
        value = JSON.parse(record.text);
      } catch {
        errors.push({ path: at, message: `JSON record at byte ${offset} is not JSON: skipped` });
      }
      if (value !== undefined) {
        if (isObject(value) && ('connection' in value || 'closed' in value)) collect(value, at);
        else
          errors.push({ path: at, message: `JSON record at byte ${offset} is not a connection or a close: skipped` });
      }
    }
    offset = read.next;
  }
  return { connections, frames, errors };
}

/** The connection, or what is wrong with it. */
function readConnection(c: unknown): ConnectionInfo | string {
  if (!isObject(c)) return 'connection is not an object';
  const { connectionId, url, protocol, extensions, time } = c;
  if (typeof connectionId !== 'string') return 'connectionId is not a string';
  if (typeof url !== 'string') return 'url is not a string';
  if (typeof protocol !== 'string' || typeof extensions !== 'string') return 'protocol / extensions is not a string';
  if (!isFiniteNumber(time)) return 'time is not a number';
  return {
    connectionId,
    url,
    protocol,
    extensions,
    ...(c.extensionsRecorded === true ? { extensionsRecorded: true } : {}),
    ...(typeof c.upstreamExtensions === 'string' ? { upstreamExtensions: c.upstreamExtensions } : {}),
    time,
  };
}

/** The frame, or what is wrong with it. */
function readFrame(f: unknown): WireFrame | string {
  if (!isObject(f)) return 'frame is not an object';
  if (typeof f.c !== 'string') return 'c (connection id) is not a string';
  if (f.d !== 's' && f.d !== 'r') return 'd (direction) is not "s" or "r"';
  if (!isFiniteNumber(f.t)) return 't (time) is not a number';
  if (f.o !== 't' && f.o !== 'b') return 'o (opcode) is not "t" or "b"';
  if (typeof f.b64 !== 'string') return 'b64 (data) is not a string';
  const decoded = decodeBase64(f.b64);
  if (!decoded.ok) return `b64 is not valid base64: ${decoded.error} at character ${decoded.offset}`;
  const legBytes = readLegBytes(f.w);
  if (typeof legBytes === 'string') return legBytes;
  return {
    connectionId: f.c,
    direction: f.d === 's' ? 'sent' : 'received',
    time: f.t,
    opcode: f.o === 't' ? 'text' : 'binary',
    data: decoded.bytes,
    ...(legBytes ? { legBytes } : {}),
    ...(f.origin === 'wirescope' ? { origin: 'wirescope' as const } : {}),
  };
}

/** A frame's `w` (bytes on the client's and the upstream's leg): absent, or two byte counts / nulls. */
function readLegBytes(w: unknown): LegBytes | null | string {
  if (w === undefined) return null;
  const count = (v: unknown): v is number | null => v === null || (Number.isSafeInteger(v) && (v as number) >= 0);
  if (!Array.isArray(w) || w.length !== 2 || !count(w[0]) || !count(w[1]))
    return 'w (bytes per leg) is not [client, upstream] byte counts';
  return { client: w[0], upstream: w[1] };
}

/** How far into a dropped file to look: both formats say what they are near the start. */
const SNIFF_CHARS = 64 * 1024;

/** Why a file that is no capture is not: an empty one says so (a recording where nothing happened), else null. */
export function emptyCaptureReason(input: Uint8Array | string): string | null {
  const head =
    typeof input === 'string' ? input.slice(0, SNIFF_CHARS) : new TextDecoder().decode(input.subarray(0, SNIFF_CHARS));
  return head.replace(/^\uFEFF/, '').trim() === '' && input.length <= SNIFF_CHARS
    ? 'the file is empty: nothing was recorded in it'
    : null;
}

/**
 * Which parser a dropped file needs: 'wirescope' (its `"format"` comes first), 'har' (a JSON
 * object whose `log` holds entries), or null. Looks only at the start of the file.
 */
export function detectCaptureKind(input: Uint8Array | string): 'har' | 'wirescope' | null {
  const head =
    typeof input === 'string' ? input.slice(0, SNIFF_CHARS) : new TextDecoder().decode(input.subarray(0, SNIFF_CHARS));
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('{')) return null;
  if (/"format"\s*:\s*"wirescope-capture"/.test(text)) return 'wirescope';
  // Chrome writes `{ "log": { "version", "creator", "pages", "entries" } }`; long `pages`
  // can push "entries" past the sniffed head, so `"log": {` at the top is enough.
  if (/^\{\s*"log"\s*:\s*\{/.test(text) || (/"log"\s*:/.test(text) && /"entries"\s*:\s*\[/.test(text))) return 'har';
  return null;
}
