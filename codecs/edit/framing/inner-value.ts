import { diagnostic } from '../../core/diagnostic.js';
import { readPayload } from '../../protocols/frame-parts.js';
import { cborFromEdn } from '../cbor-from-edn.js';
import type { EditResult } from '../edit-error.js';
import { bytesFromHex, hexText } from '../hex-text.js';
import { jsonFromText } from '../json-text.js';
import { msgpackEditText } from '../msgpack-edit-text.js';
import { msgpackFromText } from '../msgpack-from-text.js';

/**
 * The value inside a framing (an MQTT payload, a STOMP body, a Socket.IO packet's data),
 * edited in its own notation: EDN for CBOR, MessagePack edit text, JSON as the text itself,
 * UTF-8 text verbatim, else hex. A notation is chosen only when the unchanged text gives
 * back exactly the value's bytes.
 */
export type InnerNotation = 'edn' | 'msgpack' | 'json' | 'text' | 'hex';

/** How the separator line names each notation (`--- payload as EDN`). */
export const NOTATION_NAMES: Record<InnerNotation, string> = {
  edn: 'EDN',
  msgpack: 'MessagePack edit text',
  json: 'JSON',
  text: 'text',
  hex: 'hex',
};

export function notationNamed(name: string): InnerNotation | null {
  for (const [k, v] of Object.entries(NOTATION_NAMES))
    if (v.toLowerCase() === name.toLowerCase()) return k as InnerNotation;
  return null;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function innerBytes(notation: InnerNotation, text: string): EditResult {
  switch (notation) {
    case 'edn':
      return cborFromEdn(text);
    case 'msgpack':
      return msgpackFromText(text);
    case 'json':
      return jsonFromText(text);
    case 'text':
      return { ok: true, bytes: new TextEncoder().encode(text) };
    case 'hex':
      return bytesFromHex(text);
  }
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The notation and text `bytes` are edited in, read as frame-parts reads a payload
 * (`prefer`: a STOMP content-type's hint). Text with a carriage return is edited as hex: a
 * browser's text box turns CR LF into LF.
 */
export function innerSource(
  bytes: Uint8Array,
  prefer?: 'json' | 'text' | 'bytes',
): { readonly notation: InnerNotation; readonly text: string } {
  const { reading, sub } = readPayload(bytes, prefer);
  const candidates: { notation: InnerNotation; text: () => string }[] = [];
  const decoded = () => fatalUtf8.decode(bytes);
  if (reading === 'json') candidates.push({ notation: 'json', text: decoded });
  else if (reading === 'cbor' && sub) candidates.push({ notation: 'edn', text: () => diagnostic(sub, sub.root) });
  else if (reading === 'msgpack' && sub)
    candidates.push({ notation: 'msgpack', text: () => msgpackEditText(sub, sub.root) });
  if (reading === 'text' || reading === 'empty' || reading === 'json')
    candidates.push({ notation: 'text', text: decoded });
  for (const c of candidates) {
    const text = c.text();
    if (c.notation !== 'edn' && c.notation !== 'msgpack' && text.includes('\r')) continue;
    const back = innerBytes(c.notation, text);
    if (back.ok && same(back.bytes, bytes)) return { notation: c.notation, text };
  }
  return { notation: 'hex', text: hexText(bytes) };
}
