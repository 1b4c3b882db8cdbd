import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import {
  closeContainer,
  field,
  initParts,
  markIncomplete,
  openContainer,
  payload,
  protocolWalker,
  text,
  type PartsData,
  type PayloadReading,
} from './frame-parts.js';

/**
 * STOMP 1.0-1.2 frames over WebSocket (usually text frames): `COMMAND` EOL, `name:value` EOL
 * headers, a blank line, the body, NUL, optional EOLs. A frame is a map: `command`,
 * `headers` (each header's name is its key, spanning the name's bytes; the value spans the
 * colon, the value and its EOL), `blank line`, `body` (by content-type: JSON as a subtree
 * with spans into the frame, text/* as text; otherwise by the usual rules) and `NUL` (with
 * any trailing EOLs). A WebSocket frame holding only EOLs is a heart-beat; several STOMP
 * frames in one WebSocket frame make the root an array.
 */
export const STOMP_COMMANDS = [
  'CONNECT',
  'STOMP',
  'CONNECTED',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
  'MESSAGE',
  'RECEIPT',
  'ERROR',
] as const;
const COMMANDS = new Set<string>(STOMP_COMMANDS);

export interface StompFrame {
  /** A command, or `heart-beat` for a frame of EOLs alone. */
  readonly command: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: PayloadReading;
  readonly node: number;
}

interface StompData extends PartsData {
  frames: StompFrame[];
}

export function stompFrames(index: SpanIndex): readonly StompFrame[] {
  return (index.formatData as StompData | null)?.frames ?? [];
}

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/** The end of the line at pos (the index of its LF), or -1. */
function lineEnd(bytes: Uint8Array, pos: number): number {
  const at = bytes.indexOf(LF, pos);
  return at;
}

/** STOMP 1.2 header escapes: \r \n \c \\. */
function unescape(value: string): string {
  return value.replace(/\\([rnc\\])/g, (_, c: string) =>
    c === 'r' ? '\r' : c === 'n' ? '\n' : c === 'c' ? ':' : '\\',
  );
}

class Stop {
  constructor(
    readonly at: number,
    readonly message: string,
    readonly code: 'truncated' | 'invalid-token' = 'invalid-token',
  ) {}
}

function isEol(bytes: Uint8Array, pos: number): number {
  if (bytes[pos] === LF) return 1;
  if (bytes[pos] === CR && bytes[pos + 1] === LF) return 2;
  return 0;
}

/** Reads one STOMP frame at pos under parent; returns where the next one starts. */
function readFrame(index: SpanIndex, data: StompData, parent: number, pos: number): number {
  const { bytes } = index;
  const len = bytes.length;
  // Heart-beat: EOLs alone.
  let eols = pos;
  while (eols < len && isEol(bytes, eols)) eols += isEol(bytes, eols);
  if (eols === len) {
    const node = openContainer(index, parent, null, Kind.map, pos);
    field(index, node, 'heart-beat', pos, eols, text(bytes, pos, eols), Kind.text);
    closeContainer(index, node, eols);
    data.frames.push({ command: 'heart-beat', headers: new Map(), body: 'empty', node });
    return eols;
  }
  const node = openContainer(index, parent, null, Kind.map, pos);
  // EOLs before a frame are heart-beats sent in the same message.
  if (eols > pos) field(index, node, 'heart-beat', pos, eols, text(bytes, pos, eols), Kind.text);
  pos = eols;
  const headers = new Map<string, string>();
  const frame = { command: '', headers, body: 'empty' as PayloadReading, node };
  try {
    const cmdEnd = lineEnd(bytes, pos);
    if (cmdEnd < 0) throw new Stop(len, 'the command line has no end of line', 'truncated');
    const command = text(bytes, pos, bytes[cmdEnd - 1] === CR ? cmdEnd - 1 : cmdEnd);
    if (!COMMANDS.has(command)) throw new Stop(pos, `"${command.slice(0, 20)}" is not a STOMP command`);
    frame.command = command;
    field(index, node, 'command', pos, cmdEnd + 1, command, Kind.text);
    let p = cmdEnd + 1;
    const escaped = command !== 'CONNECT' && command !== 'CONNECTED';
    const map = openContainer(index, node, 'headers', Kind.map, p);
    try {
      while (p < len && !isEol(bytes, p)) {
        const end = lineEnd(bytes, p);
        if (end < 0) throw new Stop(len, 'a header line has no end of line', 'truncated');
        const colon = bytes.indexOf(0x3a, p);
        if (colon < 0 || colon > end) throw new Stop(p, 'a header line without a colon');
        const rawName = text(bytes, p, colon);
        const name = escaped ? unescape(rawName) : rawName;
        const valueEnd = bytes[end - 1] === CR ? end - 1 : end;
        const raw = text(bytes, colon + 1, valueEnd);
        const value = escaped ? unescape(raw) : raw;
        // STOMP: the first of a repeated header wins.
        if (!headers.has(name)) headers.set(name, value);
        const key = field(index, map, null, p, colon, name, Kind.text);
        index.store.addFlags(key, 4 /* Flag.key */);
        field(index, map, null, colon, end + 1, value, Kind.text, 1);
        p = end + 1;
      }
    } finally {
      // Entries, not nodes: a header is a key and a value.
      index.store.setArg(map, index.store.arg[map] / 2);
      closeContainer(index, map, p);
    }
    if (p >= len) throw new Stop(len, 'the headers end without the blank line', 'truncated');
    const blank = isEol(bytes, p);
    field(index, node, 'blank line', p, p + blank, '', Kind.text);
    p += blank;
    const lengthHeader = headers.get('content-length');
    let bodyEnd: number;
    if (lengthHeader !== undefined && /^\d+$/.test(lengthHeader.trim())) {
      bodyEnd = p + Number(lengthHeader.trim());
      if (bodyEnd >= len)
        throw new Stop(len, `content-length says ${lengthHeader.trim()} bytes but the frame ends first`, 'truncated');
      if (bytes[bodyEnd] !== NUL) throw new Stop(bodyEnd, 'no NUL after content-length bytes of body');
    } else {
      bodyEnd = bytes.indexOf(NUL, p);
      if (bodyEnd < 0) throw new Stop(len, 'the body has no NUL terminator', 'truncated');
    }
    const type = (headers.get('content-type') ?? '').toLowerCase();
    const prefer = /[/+]json\b/.test(type)
      ? 'json'
      : type.startsWith('text/')
        ? 'text'
        : type === 'application/octet-stream'
          ? 'bytes'
          : undefined;
    frame.body = payload(index, node, 'body', p, bodyEnd, prefer);
    let end = bodyEnd + 1;
    while (end < len && isEol(bytes, end)) end += isEol(bytes, end);
    field(index, node, 'NUL', bodyEnd, end, '', Kind.text);
    closeContainer(index, node, end);
    data.frames.push(frame);
    return end;
  } catch (e) {
    if (e instanceof Stop) {
      index.fail(e.code, e.at, e.message);
      markIncomplete(index, node, Math.min(len, Math.max(e.at, index.store.end[node])));
      if (frame.command) data.frames.push(frame);
      return -1;
    }
    throw e;
  }
}

/** Where the frame at pos ends (after its NUL and EOLs), read without recording; -1 when it does not. */
function frameEnd(bytes: Uint8Array, pos: number): number {
  let p = pos;
  let length = -1;
  // Command and header lines up to the blank line; content-length decides where the body ends.
  for (let first = true; ; first = false) {
    const end = lineEnd(bytes, p);
    if (end < 0) return -1;
    const line = end === p || (end === p + 1 && bytes[p] === CR);
    if (line && !first) {
      p = end + 1;
      break;
    }
    if (!first && end - p > 15 && text(bytes, p, p + 15) === 'content-length:') {
      const n = Number(text(bytes, p + 15, end).trim());
      if (length < 0 && Number.isInteger(n) && n >= 0) length = n;
    }
    p = end + 1;
  }
  const nul = length >= 0 ? p + length : bytes.indexOf(NUL, p);
  if (nul < 0 || bytes[nul] !== NUL) return -1;
  let end = nul + 1;
  while (end < bytes.length && isEol(bytes, end)) end += isEol(bytes, end);
  return end;
}

function walkFrame(index: SpanIndex): void {
  const { bytes } = index;
  const data = initParts(index) as StompData;
  data.frames = [];
  if (bytes.length === 0) {
    index.fail('empty-input', 0, 'a STOMP frame holds at least a command or an EOL');
    return;
  }
  // Several frames: probe where the first one ends.
  const after = frameEnd(bytes, 0);
  const several = after > 0 && after < bytes.length;
  const root = several ? openContainer(index, -1, null, Kind.array, 0) : -1;
  let pos = 0;
  try {
    do {
      pos = readFrame(index, data, root, pos);
    } while (several && pos > 0 && pos < bytes.length);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    index.fail(e.code, e.at, e.message);
  }
  if (root >= 0) closeContainer(index, root, bytes.length);
}

export const stompWalker = protocolWalker('stomp', walkFrame, (index) => {
  const frames = stompFrames(index);
  if (index.store.kind[0] === Kind.array) return `stomp ${frames.length} frames`;
  return frames[0] ? `stomp ${frames[0].command}` : 'stomp';
});
