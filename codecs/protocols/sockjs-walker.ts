import { Kind } from '../core/kinds.js';
import { SpanIndex } from '../core/span-index.js';
import { jsonWalker } from '../json/walker.js';
import {
  adoptNode,
  closeContainer,
  field,
  initParts,
  markIncomplete,
  openContainer,
  protocolWalker,
  type PartsData,
} from './frame-parts.js';

/**
 * SockJS server frames over its WebSocket transport (text frames): `o` (open), `h`
 * (heart-beat), `a` + a JSON array of JSON-encoded strings (each one a message the app sent:
 * the string's JSON opens as a nested value), `m` + one JSON string (older servers) and
 * `c` + `[code, "reason"]` (close). The root is a map: `frame` (the letter) and, after it,
 * `messages`, `message` or `close` (the JSON, read by the JSON walker with spans in the frame).
 * The client's frames are plain JSON arrays of strings (`["…"]`): JSON, recognized as SockJS
 * on a SockJS connection (protocols/recognize.ts).
 */
export const SOCKJS_FRAMES: Record<string, { readonly name: string; readonly body: string | null }> = {
  o: { name: 'open', body: null },
  h: { name: 'heartbeat', body: null },
  a: { name: 'array', body: 'messages' },
  m: { name: 'message', body: 'message' },
  c: { name: 'close', body: 'close' },
};

export interface SockjsFrame {
  /** `open`, `heartbeat`, `array`, `message`, `close`. */
  readonly name: string;
  /** Messages in an `a` frame (1 for `m`). */
  readonly messages: number;
  /** A close frame's code and reason. */
  readonly code?: number;
  readonly reason?: string;
}

interface SockjsData extends PartsData {
  frame: SockjsFrame | null;
}

export function sockjsFrame(index: SpanIndex): SockjsFrame | null {
  return (index.formatData as SockjsData | null)?.frame ?? null;
}

function walkFrame(index: SpanIndex): void {
  const { bytes } = index;
  const data = initParts(index) as SockjsData;
  data.frame = null;
  const root = openContainer(index, -1, null, Kind.map, 0);
  const letter = String.fromCharCode(bytes[0] ?? 0);
  const kind = SOCKJS_FRAMES[letter];
  if (!kind) {
    index.fail(bytes.length ? 'invalid-byte' : 'empty-input', 0, 'a SockJS frame starts with o, h, a, m or c');
    markIncomplete(index, root, Math.min(1, bytes.length));
    return;
  }
  field(index, root, 'frame', 0, 1, kind.name, Kind.text);
  if (!kind.body) {
    if (bytes.length > 1) {
      index.fail('trailing-bytes', 1, `a SockJS ${kind.name} frame is the letter "${letter}" alone`);
      markIncomplete(index, root, bytes.length);
      return;
    }
    data.frame = { name: kind.name, messages: 0 };
    closeContainer(index, root, 1);
    return;
  }
  const sub = new SpanIndex(bytes.subarray(1), jsonWalker, { depth: 1 });
  const want = letter === 'm' ? Kind.text : Kind.array;
  if (sub.error || sub.root < 0 || sub.store.kind[0] !== want) {
    const error = sub.error;
    if (error)
      index.fail(error.code, 1 + error.offset, `SockJS ${kind.name}: ${error.message.replace(/ at byte \d+$/, '')}`);
    else
      index.fail('invalid-byte', 1, `a SockJS ${kind.name} frame holds a JSON ${letter === 'm' ? 'string' : 'array'}`);
    markIncomplete(index, root, bytes.length);
    return;
  }
  adoptNode(index, root, kind.body, sub, 0, 1);
  closeContainer(index, root, bytes.length);
  const items = letter === 'm' ? [] : sub.children(0);
  if (letter === 'a' && items.some((id) => sub.store.kind[id] !== Kind.text)) {
    index.fail('invalid-byte', 1, 'a SockJS array frame holds JSON strings, one per message');
    markIncomplete(index, root, bytes.length);
    return;
  }
  if (letter === 'c') {
    const [code, reason] = items.map((id) => (sub.isContainer(id) ? undefined : sub.value(id)));
    data.frame = {
      name: kind.name,
      messages: 0,
      ...(typeof code === 'number' ? { code } : {}),
      ...(typeof reason === 'string' ? { reason } : {}),
    };
    return;
  }
  data.frame = { name: kind.name, messages: letter === 'm' ? 1 : items.length };
}

export const sockjsWalker = protocolWalker('sockjs', walkFrame, (index) => {
  const f = sockjsFrame(index);
  return f ? `sockjs ${f.name}` : 'sockjs';
});
