import { Kind } from '../../core/kinds.js';
import { SpanIndex } from '../../core/span-index.js';
import { jsonWalker } from '../../json/walker.js';
import { editError } from '../edit-error.js';
import { fail, fieldLines, framedText } from './framed-text.js';
import { concatBytes, type Framing, type FramingName, readEdit, utf8Bytes } from './framing.js';

/**
 * Framings that are JSON documents (Phoenix, GraphQL over WebSocket, Centrifugo, WAMP): the
 * inner value is one member (a payload, a publication's data, a call's arguments), edited as
 * JSON; the members beside it and beside each container on the way to it are fields, named
 * by their path (`id`, `push.channel`, `[3]`), each a line of JSON as written. Rebuilt: the
 * document with each field's and the value's bytes put back in place, everything between
 * them (keys, commas, blanks) as it was. Which framing a frame is in, protocol recognition
 * (with the connection's subprotocol) says: a WAMP frame is known as one by `wamp.2.json`.
 */
interface Piece {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

interface JsonLayout {
  readonly fields: readonly Piece[];
  readonly inner: Piece;
}

type InnerRule = (index: SpanIndex) => number;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function member(index: SpanIndex, node: number, key: string): number {
  if (index.store.kind[node] !== Kind.map) return -1;
  for (const c of index.children(node)) if (index.value(index.keyOf(c)) === key) return c;
  return -1;
}

function item(index: SpanIndex, node: number, at: number): number {
  if (index.store.kind[node] !== Kind.array) return -1;
  return index.children(node)[at] ?? -1;
}

/** The first `data` member breadth-first through objects, at most three levels down (a Centrifugo publication). */
function centrifugoData(index: SpanIndex): number {
  let level = [index.root];
  for (let depth = 0; depth < 3 && level.length; depth++) {
    const next: number[] = [];
    for (const n of level) {
      if (index.store.kind[n] !== Kind.map) continue;
      const d = member(index, n, 'data');
      if (d >= 0) return d;
      next.push(...index.children(n));
    }
    level = next;
  }
  return -1;
}

/** Where a WAMP message holds its Arguments list, by message code. */
const WAMP_ARGUMENTS_AT: Record<number, number> = { 8: 5, 16: 4, 36: 4, 48: 4, 50: 3, 68: 4, 70: 3 };

const RULES: Record<Exclude<FramingName, 'socketio' | 'mqtt' | 'stomp'>, InnerRule> = {
  phoenix: (index) =>
    index.store.kind[index.root] === Kind.array ? item(index, index.root, 4) : member(index, index.root, 'payload'),
  'graphql-ws': (index) => member(index, index.root, 'payload'),
  'subscriptions-transport-ws': (index) => member(index, index.root, 'payload'),
  centrifugo: centrifugoData,
  wamp: (index) => {
    const code = index.value(item(index, index.root, 0));
    return typeof code === 'number' && WAMP_ARGUMENTS_AT[code] !== undefined
      ? item(index, index.root, WAMP_ARGUMENTS_AT[code])
      : -1;
  },
};

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/;

function stepName(index: SpanIndex, parentPath: string, node: number): string {
  const parent = index.store.parent[node];
  if (index.store.kind[parent] === Kind.array) return `${parentPath}[${index.children(parent).indexOf(node)}]`;
  const key = String(index.value(index.keyOf(node)));
  const step = SIMPLE_KEY.test(key) ? key : JSON.stringify(key);
  return parentPath ? `${parentPath}.${step}` : step;
}

function layout(name: keyof typeof RULES, bytes: Uint8Array): JsonLayout | null {
  const index = new SpanIndex(bytes, jsonWalker);
  if (index.error || index.root < 0) return null;
  const inner = RULES[name](index);
  if (inner < 0) return null;
  const path: number[] = [];
  for (let n = inner; n >= 0; n = index.store.parent[n]) path.unshift(n);
  const fields: Piece[] = [];
  let prefix = '';
  const text = (p: Piece) => utf8.decode(bytes.subarray(p.start, p.end));
  for (let i = 0; i < path.length - 1; i++) {
    for (const c of index.children(path[i])) {
      if (c === path[i + 1]) continue;
      fields.push({ name: stepName(index, prefix, c), start: index.store.start[c], end: index.store.end[c] });
    }
    prefix = stepName(index, prefix, path[i + 1]);
  }
  const innerPiece = { name: prefix, start: index.store.start[inner], end: index.store.end[inner] };
  // One line a field, names the edit text reads back: else the frame is edited as plain JSON.
  if (fields.some((f) => f.name.includes(': ') || /[\r\n]/.test(text(f))) || text(innerPiece).includes('\r'))
    return null;
  return { fields, inner: innerPiece };
}

const TITLES: Record<keyof typeof RULES, string> = {
  phoenix: 'Phoenix message',
  'graphql-ws': 'graphql-ws message',
  'subscriptions-transport-ws': 'subscriptions-transport-ws message',
  centrifugo: 'Centrifugo message',
  wamp: 'WAMP message',
};

function jsonFraming(name: keyof typeof RULES): Framing {
  return {
    name,
    title: TITLES[name],
    source(bytes) {
      const l = layout(name, bytes);
      if (!l) return null;
      const text = (p: Piece) => utf8.decode(bytes.subarray(p.start, p.end));
      return framedText(
        [
          `${TITLES[name]}: edit the fields (each a line of JSON) and ${l.inner.name}; the message is rebuilt around them, the rest as written`,
        ],
        l.fields.map((f) => `${f.name}: ${text(f)}`),
        l.inner.name,
        { notation: 'json', text: text(l.inner) },
      );
    },
    build(original, text) {
      const l = layout(name, original);
      if (!l) return fail(text, 0, `the original frame is not a ${TITLES[name]}`);
      const read = readEdit(text);
      if (!read.ok) return read;
      const { parts, inner } = read.value;
      if (parts.notation !== 'json')
        return { ok: false, error: editError(text, parts.bodyOffset, `${l.inner.name} is JSON in a JSON message`) };
      const fields = fieldLines(
        text,
        parts.head,
        l.fields.map((f) => f.name),
      );
      if (!fields.ok) return fields;
      const pieces = [
        ...l.fields.map((f) => ({ ...f, bytes: utf8Bytes(fields.value.get(f.name)!.raw) })),
        { ...l.inner, bytes: inner },
      ];
      pieces.sort((a, b) => a.start - b.start);
      const out: Uint8Array[] = [];
      let at = 0;
      for (const p of pieces) {
        out.push(original.subarray(at, p.start), p.bytes);
        at = p.end;
      }
      out.push(original.subarray(at));
      return { ok: true, bytes: concatBytes(out) };
    },
  };
}

export const phoenixFraming = jsonFraming('phoenix');
export const graphqlWsFraming = jsonFraming('graphql-ws');
export const subscriptionsTransportWsFraming = jsonFraming('subscriptions-transport-ws');
export const centrifugoFraming = jsonFraming('centrifugo');
export const wampFraming = jsonFraming('wamp');
