import { Flag, Kind } from '../core/kinds.js';
import { SpanIndex, type Preview } from '../core/span-index.js';
import { tagNumber } from '../core/tag-number.js';

import { decodeUtf8 } from '../core/utf8.js';
import { cborArgument, decodeFloat16 } from './value.js';
import { hexOf } from '../core/hex.js';

/**
 * Known CBOR tags (RFC 8949 section 3.4, IANA registry) read as what they mean in previews
 * and tree labels: 0 / 1 dates, 2 / 3 bignums as the integer, 24 embedded CBOR, 32 URI,
 * 37 UUID, 55799 self-described CBOR (transparent). The content is read from its own bytes
 * (head and payload), never by walking it: a tag row costs what its content's head costs.
 * Anything unexpected (a tag over the wrong type, a cut frame) falls back to `N(content)`.
 */

export const SELF_DESCRIBE_TAG = 55799;

/** Embedded CBOR larger than this is named, not decoded, for its preview. */
const EMBEDDED_PREVIEW_LIMIT = 64 * 1024;
/** Bignums beyond this many bytes show their size, not a thousand-digit number. */
const BIGNUM_PREVIEW_BYTES = 64;

const CONTENT_LABELS: Readonly<Record<string, string>> = {
  '0': 'date/time text',
  '1': 'epoch seconds',
  '2': 'bignum bytes',
  '3': 'negative bignum bytes',
  '24': 'embedded CBOR',
  '32': 'URI',
  '37': 'UUID bytes',
  '55799': 'self-described',
};

/** What a tag's single child is, for its row label: `epoch seconds`, `UUID bytes`, … or `content`. */
export function tagContentLabel(index: SpanIndex, tagId: number): string {
  return CONTENT_LABELS[tagNumber(index, tagId)] ?? 'content';
}

/** The content of a chain of self-describe tags (55799), or `id` itself. Expands on demand. */
export function throughSelfDescribe(index: SpanIndex, id: number): number {
  index.requireNode(id, 'throughSelfDescribe');
  let n = id;
  while (n >= 0 && index.store.kind[n] === Kind.tag && tagNumber(index, n) === String(SELF_DESCRIBE_TAG)) {
    const child = index.children(n)[0];
    if (child === undefined) break;
    n = child;
  }
  return n;
}

interface ContentHead {
  readonly major: number;
  readonly ai: number;
  readonly arg: number | bigint;
  /** First payload byte (strings), or the item's end (scalars). */
  readonly payload: number;
}

/** The head of the item at `at`, or null when it is indefinite, cut off or reserved. */
function readHead(bytes: Uint8Array, at: number, end: number): ContentHead | null {
  if (at >= end) return null;
  const ib = bytes[at];
  const major = ib >> 5;
  const ai = ib & 31;
  if (ai > 27) return null;
  const headLength = ai < 24 ? 1 : 1 + (1 << (ai - 24));
  if (at + headLength > end) return null;
  return { major, ai, arg: cborArgument(bytes, at, headLength), payload: at + headLength };
}

/** A string payload's bounds when it is definite and whole inside the tag. */
function payloadOf(head: ContentHead, major: number, end: number): [number, number] | null {
  if (head.major !== major || typeof head.arg !== 'number' || head.payload + head.arg > end) return null;
  return [head.payload, head.payload + head.arg];
}

function isoDate(ms: number): string | null {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function epochSeconds(bytes: Uint8Array, at: number, head: ContentHead): number | null {
  if (head.major === 0 || head.major === 1) {
    if (typeof head.arg !== 'number') return null;
    return head.major === 0 ? head.arg : -1 - head.arg;
  }
  if (head.major !== 7) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset + at + 1);
  if (head.ai === 25) return decodeFloat16((bytes[at + 1] << 8) | bytes[at + 2]);
  if (head.ai === 26) return view.getFloat32(0);
  if (head.ai === 27) return view.getFloat64(0);
  return null;
}

/** The meaning of a known tag, or null (then the caller shows `N(content)`). */
function knownTagText(index: SpanIndex, tagId: number, tag: string, max: number, previewValue: Preview): string | null {
  const { bytes, store } = index;
  const at = store.start[tagId] + store.head[tagId];
  const end = store.end[tagId];
  const head = readHead(bytes, at, end);
  if (!head) return null;
  switch (tag) {
    case '0': {
      const p = payloadOf(head, 3, end);
      return p ? `date ${decodeUtf8(bytes, p[0], Math.min(p[1], p[0] + max * 4))}` : null;
    }
    case '1': {
      const seconds = epochSeconds(bytes, at, head);
      const date = seconds === null ? null : isoDate(seconds * 1000);
      return date ? `date ${date} (${seconds})` : null;
    }
    case '2':
    case '3': {
      const p = payloadOf(head, 2, end);
      if (!p) return null;
      if (p[1] - p[0] > BIGNUM_PREVIEW_BYTES) return `${tag === '2' ? '' : '-'}bignum (${p[1] - p[0]} B)`;
      let n = 0n;
      for (let i = p[0]; i < p[1]; i++) n = (n << 8n) | BigInt(bytes[i]);
      return (tag === '2' ? n : -1n - n).toString();
    }
    case '32': {
      const p = payloadOf(head, 3, end);
      return p ? `URI ${decodeUtf8(bytes, p[0], Math.min(p[1], p[0] + max * 4))}` : null;
    }
    case '37': {
      const p = payloadOf(head, 2, end);
      if (!p || p[1] - p[0] !== 16) return null;
      const h = hexOf(bytes, p[0], p[1]);
      return `UUID ${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case '24': {
      const p = payloadOf(head, 2, end);
      if (!p) return null;
      const size = p[1] - p[0];
      if (size > EMBEDDED_PREVIEW_LIMIT) return `embedded CBOR (${size.toLocaleString('en-US')} B)`;
      // The content is CBOR, read by the walker that read the tag (the CBOR walker).
      const inner = new SpanIndex(bytes.subarray(p[0], p[1]), index.walker, { depth: 1 });
      if (inner.error || inner.root < 0)
        return `embedded CBOR (${size} B, not well-formed: ${inner.error?.message ?? 'empty'})`;
      return `embedded CBOR (${size} B): ${previewValue(inner, inner.root, max)}`;
    }
    case '55799': {
      // Transparent: the content's own preview (its head alone for a container not yet read).
      if (head.major === 4 || head.major === 5) {
        const child = store.flags[tagId] & Flag.expanded ? store.firstChild[tagId] : -1;
        if (child >= 0) return previewValue(index, child, max);
      }
      const child = index.children(tagId)[0];
      return child === undefined ? null : previewValue(index, child, max);
    }
    default:
      return null;
  }
}

/** A tag's one-line preview: its meaning for known tags, `N(content preview)` otherwise. */
export function cborTagPreview(index: SpanIndex, tagId: number, max: number, previewValue: Preview): string {
  const tag = tagNumber(index, tagId);
  if (!index.isIncomplete(tagId)) {
    const known = knownTagText(index, tagId, tag, max, previewValue);
    if (known !== null) return known;
  }
  const { store } = index;
  const recorded = store.flags[tagId] & Flag.expanded ? store.firstChild[tagId] : -1;
  // An unrecorded container content is shown by its head, never walked for a preview.
  const at = store.start[tagId] + store.head[tagId];
  const head = readHead(index.bytes, at, store.end[tagId]);
  let inner = '…';
  if (recorded >= 0) inner = previewValue(index, recorded, max);
  else if (head && head.major !== 4 && head.major !== 5 && head.major !== 6 && !index.isIncomplete(tagId)) {
    const child = index.children(tagId)[0];
    if (child !== undefined) inner = previewValue(index, child, max);
  }
  return `${tag}(${inner})`;
}
