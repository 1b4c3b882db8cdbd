import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { fields } from './recognize-fields.js';

/** An event's fixed-size hex fields (NIP-01): lowercase hex of this many bytes. */
const HEX_FIELDS: readonly (readonly [string, number])[] = [
  ['id', 32],
  ['pubkey', 32],
  ['sig', 64],
];
const EVENT_FIELDS = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'];

/** `["EVENT"` and `["AUTH"` (an event of NIP-42) open the frames that carry a whole event. */
const OPENINGS = ['["EVENT"', '["AUTH"'].map((s) => Array.from(s, (c) => c.charCodeAt(0)));

/**
 * Checks a Nostr event's fields (NIP-01): id, pubkey and sig are lowercase hex of 32, 32 and
 * 64 bytes, created_at and kind integers, tags an array, content a string. What does not fit
 * is a warning at the field's value (the frame still reads as the JSON it is). Returns how
 * many fields fit.
 */
export function checkNostrEvent(index: SpanIndex, event: number): number {
  const f = fields(index, event);
  let fit = 0;
  const warn = (node: number, message: string) =>
    index.warn({ code: 'invalid-field', offset: index.store.start[node], node, message: `Nostr event: ${message}` });
  for (const [name, size] of HEX_FIELDS) {
    const node = f.get(name);
    if (node === undefined) continue;
    const value = index.isContainer(node) ? undefined : index.value(node);
    const hex = typeof value === 'string' && /^[0-9a-f]*$/.test(value);
    if (hex && value.length === 2 * size) fit++;
    else if (typeof value !== 'string') warn(node, `${name} is ${index.kind(node)}, not ${size} bytes of hex`);
    else if (!hex) warn(node, `${name} is not lowercase hex (${size} bytes of it)`);
    else warn(node, `${name} is ${value.length} hex digits, not ${2 * size} (${size} bytes)`);
  }
  for (const name of ['created_at', 'kind']) {
    const node = f.get(name);
    if (node === undefined) continue;
    if (Number.isInteger(index.isContainer(node) ? undefined : index.value(node))) fit++;
    else warn(node, `${name} is not an integer`);
  }
  const tags = f.get('tags');
  if (tags !== undefined && index.store.kind[tags] === Kind.array) fit++;
  else if (tags !== undefined) warn(tags, 'tags is not an array');
  const content = f.get('content');
  if (content !== undefined && index.store.kind[content] === Kind.text) fit++;
  else if (content !== undefined) warn(content, 'content is not a string');
  return fit;
}

/**
 * A JSON frame that carries a Nostr event (`["EVENT", …]`, `["AUTH", {…}]` with an object of an
 * event's seven fields): its fields checked (checkNostrEvent, warnings on the index) and the
 * reason detection gives; null for any other frame.
 */
export function nostrEventReason(bytes: Uint8Array, index: SpanIndex): string | null {
  if (!OPENINGS.some((o) => o.every((c, i) => bytes[i] === c))) return null;
  if (index.error || index.store.kind[0] !== Kind.array) return null;
  const items = index.children(0);
  const event = items.slice(1).find((id) => index.store.kind[id] === Kind.map);
  if (event === undefined) return null;
  const keys = [...fields(index, event).keys()];
  if (!EVENT_FIELDS.every((k) => keys.includes(k))) return null;
  const fit = checkNostrEvent(index, event);
  return `Nostr event, ${fit} of its 7 fields as NIP-01 has them (id, pubkey, sig: hex of 32, 32, 64 bytes)`;
}
