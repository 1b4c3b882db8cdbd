import type { EditResult } from '../edit-error.js';
import { editError } from '../edit-error.js';
import { type FramedParts, type Parsed, parseFramedText } from './framed-text.js';
import { innerBytes } from './inner-value.js';

/** The framings whose inner value Edit and send edits, the framing rebuilt around it. */
export type FramingName =
  | 'socketio'
  | 'mqtt'
  | 'stomp'
  | 'phoenix'
  | 'graphql-ws'
  | 'subscriptions-transport-ws'
  | 'centrifugo'
  | 'wamp';

export interface Framing {
  readonly name: FramingName;
  /** `Socket.IO packet`: what the editor says it edits. */
  readonly title: string;
  /** The edit text of `bytes`, or null when they are not one frame of this framing this module edits. */
  source(bytes: Uint8Array): string | null;
  /** The frame an edit text gives, the framing rebuilt around the edited value and fields; `original` is the frame edited. */
  build(original: Uint8Array, text: string): EditResult;
}

/** The edit text's parts and the inner value's bytes; an error (line, column in the whole text) when either does not read. */
export function readEdit(text: string): Parsed<{ parts: FramedParts; inner: Uint8Array }> {
  const parsed = parseFramedText(text);
  if (!parsed.ok) return parsed;
  const parts = parsed.value;
  const inner = innerBytes(parts.notation, parts.body);
  if (!inner.ok)
    return { ok: false, error: editError(text, parts.bodyOffset + inner.error.offset, inner.error.message) };
  return { ok: true, value: { parts, inner: inner.bytes } };
}

export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const utf8Bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
