import { Kind } from '../../core/kinds.js';
import { SpanIndex } from '../../core/span-index.js';
import { STOMP_COMMANDS, stompFrames, stompWalker } from '../../protocols/stomp-walker.js';
import { fail, framedText } from './framed-text.js';
import { concatBytes, type Framing, readEdit, utf8Bytes } from './framing.js';
import { innerSource } from './inner-value.js';
import { namedParts } from './named-parts.js';

/**
 * A STOMP frame (a WebSocket frame holding that one frame), read by the STOMP walker: the
 * command and header lines as STOMP writes them (escapes and all) and the body as the value.
 * Rebuilt: any heart-beat EOLs before it, the lines with the frame's own end of line,
 * `content-length` set to the new body's length when the frame has one, the blank line, the
 * body, the NUL and what followed it, as they were.
 */
interface StompLayout {
  readonly before: Uint8Array;
  readonly lines: readonly string[];
  readonly eol: string;
  readonly blank: Uint8Array;
  readonly body: Uint8Array;
  readonly after: Uint8Array;
  readonly prefer: 'json' | 'text' | 'bytes' | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function layout(bytes: Uint8Array): StompLayout | null {
  const index = new SpanIndex(bytes, stompWalker);
  if (index.error || index.root !== 0 || index.store.kind[0] !== Kind.map) return null;
  const frame = stompFrames(index)[0];
  if (!frame || frame.command === 'heart-beat') return null;
  const parts = namedParts(index, 0);
  const at = (name: string) => parts.get(name);
  const command = at('command');
  const blank = at('blank line');
  const body = at('body');
  const nul = at('NUL');
  if (command === undefined || blank === undefined || body === undefined || nul === undefined) return null;
  const { start, end } = index.store;
  let head: string;
  try {
    head = utf8.decode(bytes.subarray(start[command], start[blank]));
  } catch {
    return null;
  }
  const eol = bytes[end[command] - 2] === 0x0d ? '\r\n' : '\n';
  const lines = head.slice(0, -eol.length).split(eol);
  // Lines the edit text would read otherwise (a mixed end of line, a comment-like header): hex instead.
  if (lines.some((l) => l.includes('\r') || l.includes('\n') || l.startsWith('#') || l.startsWith('---') || !l.trim()))
    return null;
  const type = (frame.headers.get('content-type') ?? '').toLowerCase();
  return {
    before: bytes.slice(0, start[command]),
    lines,
    eol,
    blank: bytes.slice(start[blank], end[blank]),
    body: bytes.slice(start[body], end[body]),
    after: bytes.slice(start[nul], end[nul]),
    prefer: /[/+]json\b/.test(type)
      ? 'json'
      : type.startsWith('text/')
        ? 'text'
        : type === 'application/octet-stream'
          ? 'bytes'
          : undefined,
  };
}

const COMMANDS = new Set<string>(STOMP_COMMANDS);
const CONTENT_LENGTH = 'content-length:';

export const stompFraming: Framing = {
  name: 'stomp',
  title: 'STOMP frame',
  source(bytes) {
    const s = layout(bytes);
    if (!s) return null;
    return framedText(
      [
        `STOMP ${s.lines[0]} frame: the command and header lines as STOMP writes them (escaped), then the body; the frame is rebuilt around them${
          s.lines.some((l) => l.startsWith(CONTENT_LENGTH)) ? ', content-length set to the body’s length' : ''
        }`,
      ],
      s.lines,
      'body',
      innerSource(s.body, s.prefer),
    );
  },
  build(original, text) {
    const s = layout(original);
    if (!s) return fail(text, 0, 'the original frame is not one STOMP frame');
    const read = readEdit(text);
    if (!read.ok) return read;
    const { parts, inner } = read.value;
    const [command, ...headers] = parts.head;
    if (!command || !COMMANDS.has(command.text.trim()))
      return fail(text, command?.offset ?? 0, `expected a STOMP command (${STOMP_COMMANDS.join(', ')})`);
    let hasLength = false;
    const lines = [command.text];
    for (const h of headers) {
      if (!h.text.includes(':')) return fail(text, h.offset, "a STOMP header line is 'name:value'");
      if (h.text.startsWith(CONTENT_LENGTH) && !hasLength) {
        hasLength = true;
        const stated = h.text.slice(CONTENT_LENGTH.length).trim();
        lines.push(
          /^\d+$/.test(stated) && Number(stated) === inner.length ? h.text : `${CONTENT_LENGTH}${inner.length}`,
        );
      } else lines.push(h.text);
    }
    if (!hasLength && inner.includes(0))
      return fail(text, parts.bodyOffset, 'the body holds a NUL byte: it needs a content-length header line');
    const head = utf8Bytes(lines.map((l) => l + s.eol).join(''));
    return { ok: true, bytes: concatBytes([s.before, head, s.blank, inner, s.after]) };
  },
};
