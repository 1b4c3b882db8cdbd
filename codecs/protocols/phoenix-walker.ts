import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { findInvalidUtf8 } from '../core/utf8.js';
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
} from './frame-parts.js';
import { grouped } from '../core/grouped.js';

/**
 * Phoenix channels' binary frames (phoenix.js serializer, a binary payload): a kind byte,
 * the sizes of the strings that follow, the strings, then the payload bytes:
 * - push from the client: 0, join_ref, ref, topic, event sizes; the four strings; payload
 * - push from the server: 0, join_ref, topic, event sizes (no ref); the three strings; payload
 * - reply: 1, join_ref, ref, topic, status sizes; the four strings; payload (`phx_reply`)
 * - broadcast: 2, topic, event sizes; the two strings; payload
 * The root is a map of those parts with their spans; the payload is read by the usual
 * rules (JSON, CBOR, MessagePack, text, else bytes). The two push layouts differ by
 * direction, which a frame does not carry: the client's is taken when its ref reads as a
 * number (phoenix.js counts refs), else the server's.
 */
export const PHOENIX_KINDS = ['push', 'reply', 'broadcast'] as const;

export interface PhoenixBinary {
  readonly kind: (typeof PHOENIX_KINDS)[number];
  readonly joinRef: string | null;
  readonly ref: string | null;
  readonly topic: string;
  /** The event (push, broadcast) or the reply's status. */
  readonly event: string;
}

interface PhoenixData extends PartsData {
  message: PhoenixBinary | null;
}

export function phoenixBinary(index: SpanIndex): PhoenixBinary | null {
  return (index.formatData as PhoenixData | null)?.message ?? null;
}

const NAMES: Record<string, string[]> = {
  clientPush: ['join_ref', 'ref', 'topic', 'event'],
  serverPush: ['join_ref', 'topic', 'event'],
  reply: ['join_ref', 'ref', 'topic', 'status'],
  broadcast: ['topic', 'event'],
};

/** The strings' sizes from the header when they fit the frame and read as UTF-8, else null. */
function layout(bytes: Uint8Array, names: string[]): number[] | null {
  const header = 1 + names.length;
  if (bytes.length < header) return null;
  const sizes = Array.from(bytes.subarray(1, header));
  let p = header;
  for (const s of sizes) {
    if (p + s > bytes.length || findInvalidUtf8(bytes, p, p + s) >= 0) return null;
    p += s;
  }
  return sizes;
}

function walkFrame(index: SpanIndex): void {
  const { bytes } = index;
  const data = initParts(index) as PhoenixData;
  data.message = null;
  const len = bytes.length;
  const root = openContainer(index, -1, null, Kind.map, 0);
  if (len === 0 || bytes[0] > 2) {
    index.fail(
      len === 0 ? 'empty-input' : 'invalid-byte',
      0,
      'a Phoenix binary frame starts with kind 0 (push), 1 (reply) or 2 (broadcast)',
    );
    markIncomplete(index, root, Math.min(1, len));
    return;
  }
  const kind = PHOENIX_KINDS[bytes[0]];
  let names = kind === 'reply' ? NAMES.reply : kind === 'broadcast' ? NAMES.broadcast : NAMES.clientPush;
  let sizes = layout(bytes, names);
  if (kind === 'push') {
    const refAt = 5 + (sizes?.[0] ?? 0);
    const refIsNumber = sizes !== null && sizes[1] > 0 && /^\d+$/.test(text(bytes, refAt, refAt + sizes[1]));
    if (!refIsNumber && layout(bytes, NAMES.serverPush)) {
      names = NAMES.serverPush;
      sizes = layout(bytes, names);
    }
  }
  field(index, root, 'kind', 0, 1, kind, Kind.text);
  if (!sizes) {
    index.fail(
      'length-exceeds-input',
      Math.min(len, 1),
      `the ${kind} header's string sizes run past the frame (${grouped(len)} bytes) or a string is not UTF-8`,
    );
    markIncomplete(index, root, len);
    return;
  }
  const sizeList = openContainer(index, root, 'sizes', Kind.array, 1);
  sizes.forEach((s, i) => {
    field(index, sizeList, null, 1 + i, 2 + i, s, Kind.uint);
  });
  closeContainer(index, sizeList, 1 + sizes.length);
  const values: Record<string, string> = {};
  let p = 1 + sizes.length;
  names.forEach((name, i) => {
    values[name] = text(bytes, p, p + sizes![i]);
    field(index, root, name, p, p + sizes![i], values[name], Kind.text);
    p += sizes![i];
  });
  payload(index, root, 'payload', p, len);
  closeContainer(index, root, len);
  data.message = {
    kind,
    joinRef: values.join_ref ?? null,
    ref: values.ref ?? null,
    topic: values.topic,
    event: values.event ?? values.status,
  };
}

export const phoenixWalker = protocolWalker('phoenix', walkFrame, (index) => {
  const m = phoenixBinary(index);
  return m ? `phoenix ${m.kind}` : 'phoenix';
});
