import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import {
  closeContainer,
  field,
  initParts,
  markIncomplete,
  openContainer,
  type PartsData,
} from '../protocols/frame-parts.js';
import { protocolWalker } from '../protocols/frame-parts.js';
import { sizeText } from '../core/size-text.js';

/**
 * Common media files sent whole in a frame (a Socket.IO attachment, an upload), known by
 * their magic bytes: PNG, JPEG, GIF, WebP, PDF, zip, gzip and WebAssembly. The root is a map
 * of the header fields read, each spanning its bytes (`magic` holds the media type, then
 * e.g. PNG's IHDR `width` and `height`), and the rest of the file as one `data` leaf, so the
 * frame's bytes are tiled as for any format. Only the header is read: the image is not
 * decoded, and a file cut short says at which byte.
 */
export const MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/wasm',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface MediaInfo {
  readonly type: MediaType;
  /** Pixel size of an image whose header says it (null when it does not, or is cut short). */
  readonly width: number | null;
  readonly height: number | null;
}

interface MediaData extends PartsData {
  media: MediaInfo | null;
}

export function mediaInfo(index: SpanIndex): MediaInfo | null {
  return (index.formatData as MediaData | null)?.media ?? null;
}

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** The media type the first bytes announce, or null. */
export function mediaTypeOf(bytes: Uint8Array): MediaType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (startsWith(bytes, [0x1f, 0x8b, 0x08])) return 'application/gzip';
  if (startsWith(bytes, [0x00, 0x61, 0x73, 0x6d])) return 'application/wasm';
  return null;
}

const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const le16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
const le32 = (b: Uint8Array, at: number) => ((b[at + 3] << 24) >>> 0) + (b[at + 2] << 16) + (b[at + 1] << 8) + b[at];
const le24 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);

/** Where the header reading stands: the next byte to tile, and the size read. */
interface Cursor {
  at: number;
  width: number | null;
  height: number | null;
}

/** Records the fields of one header, in byte order; returns false when the frame ends inside it. */
type HeaderReader = (index: SpanIndex, root: number, cursor: Cursor) => boolean;

function uint(index: SpanIndex, root: number, cursor: Cursor, name: string, size: number, value: number): void {
  field(index, root, name, cursor.at, cursor.at + size, value, Kind.uint);
  cursor.at += size;
}

function raw(index: SpanIndex, root: number, cursor: Cursor, name: string, end: number): void {
  if (end <= cursor.at) return;
  field(index, root, name, cursor.at, end, index.bytes.slice(cursor.at, end), Kind.bytes);
  cursor.at = end;
}

/** Fails unless `need` bytes are there; the error names the field and its byte. */
function need(index: SpanIndex, cursor: Cursor, need: number, what: string): boolean {
  if (index.bytes.length >= cursor.at + need) return true;
  index.fail(
    'truncated',
    index.bytes.length,
    `the frame ends inside the ${what} (it needs bytes ${cursor.at} to ${cursor.at + need - 1})`,
  );
  return false;
}

const readPng: HeaderReader = (index, root, cursor) => {
  const { bytes } = index;
  if (!need(index, cursor, 25, 'PNG IHDR chunk')) return false;
  if (be32(bytes, 8) !== 13 || !startsWith(bytes, ascii('IHDR'), 12)) {
    index.fail('invalid-byte', 8, 'a PNG starts with its IHDR chunk (length 13) at byte 8');
    return false;
  }
  uint(index, root, cursor, 'IHDR length', 4, 13);
  field(index, root, 'chunk', 12, 16, 'IHDR', Kind.text);
  cursor.at = 16;
  cursor.width = be32(bytes, 16);
  cursor.height = be32(bytes, 20);
  uint(index, root, cursor, 'width', 4, cursor.width);
  uint(index, root, cursor, 'height', 4, cursor.height);
  uint(index, root, cursor, 'bit depth', 1, bytes[24]);
  return true;
};

const readGif: HeaderReader = (index, root, cursor) => {
  if (!need(index, cursor, 4, 'GIF screen size')) return false;
  cursor.width = le16(index.bytes, 6);
  cursor.height = le16(index.bytes, 8);
  uint(index, root, cursor, 'width', 2, cursor.width);
  uint(index, root, cursor, 'height', 2, cursor.height);
  return true;
};

/** JPEG: the first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds the size. */
const readJpeg: HeaderReader = (index, root, cursor) => {
  const { bytes } = index;
  let p = 2;
  while (p + 4 <= bytes.length && bytes[p] === 0xff) {
    const marker = bytes[p + 1];
    const length = be16(bytes, p + 2);
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) {
      if (p + 9 > bytes.length) break;
      raw(index, root, cursor, 'segments', p + 5);
      cursor.height = be16(bytes, p + 5);
      cursor.width = be16(bytes, p + 7);
      uint(index, root, cursor, 'height', 2, cursor.height);
      uint(index, root, cursor, 'width', 2, cursor.width);
      return true;
    }
    if (marker === 0xda || length < 2) break;
    p += 2 + length;
  }
  return true;
};

/** WebP: the VP8X canvas, the lossless VP8L header or the lossy VP8 key frame. */
const readWebp: HeaderReader = (index, root, cursor) => {
  const { bytes } = index;
  if (!need(index, cursor, 8, 'RIFF size and WEBP')) return false;
  uint(index, root, cursor, 'RIFF size', 4, le32(bytes, 4));
  field(index, root, 'form', 8, 12, 'WEBP', Kind.text);
  cursor.at = 12;
  if (bytes.length < 16) return true;
  const chunk = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
  field(index, root, 'chunk', 12, 16, chunk, Kind.text);
  cursor.at = 16;
  if (chunk === 'VP8X' && bytes.length >= 30) {
    raw(index, root, cursor, 'flags', 24);
    cursor.width = le24(bytes, 24) + 1;
    cursor.height = le24(bytes, 27) + 1;
    uint(index, root, cursor, 'canvas width', 3, cursor.width);
    uint(index, root, cursor, 'canvas height', 3, cursor.height);
  } else if (chunk === 'VP8L' && bytes.length >= 25 && bytes[20] === 0x2f) {
    raw(index, root, cursor, 'header', 21);
    const bits = le32(bytes, 21);
    cursor.width = (bits & 0x3fff) + 1;
    cursor.height = ((bits >>> 14) & 0x3fff) + 1;
    uint(index, root, cursor, 'size bits', 4, bits);
  } else if (chunk === 'VP8 ' && bytes.length >= 30) {
    raw(index, root, cursor, 'header', 26);
    cursor.width = le16(bytes, 26) & 0x3fff;
    cursor.height = le16(bytes, 28) & 0x3fff;
    uint(index, root, cursor, 'width', 2, cursor.width);
    uint(index, root, cursor, 'height', 2, cursor.height);
  }
  return true;
};

const readWasm: HeaderReader = (index, root, cursor) => {
  if (!need(index, cursor, 4, 'WebAssembly version')) return false;
  uint(index, root, cursor, 'version', 4, le32(index.bytes, 4));
  return true;
};

const readNothing: HeaderReader = () => true;

const MAGIC_LENGTH: Record<MediaType, number> = {
  'image/png': 8,
  'image/jpeg': 2,
  'image/gif': 6,
  'image/webp': 4,
  'application/pdf': 5,
  'application/zip': 4,
  'application/gzip': 2,
  'application/wasm': 4,
};

const READERS: Record<MediaType, HeaderReader> = {
  'image/png': readPng,
  'image/jpeg': readJpeg,
  'image/gif': readGif,
  'image/webp': readWebp,
  'application/pdf': readNothing,
  'application/zip': readNothing,
  'application/gzip': readNothing,
  'application/wasm': readWasm,
};

function walkFrame(index: SpanIndex): void {
  const { bytes } = index;
  const data = initParts(index) as MediaData;
  data.media = null;
  const root = openContainer(index, -1, null, Kind.map, 0);
  const type = mediaTypeOf(bytes);
  if (!type) {
    index.fail('invalid-byte', 0, 'no known media magic (PNG, JPEG, GIF, WebP, PDF, zip, gzip, wasm) at byte 0');
    markIncomplete(index, root, Math.min(1, bytes.length));
    return;
  }
  const cursor: Cursor = { at: 0, width: null, height: null };
  // The signature is bytes, not text: the root's preview names the type.
  field(index, root, 'magic', 0, MAGIC_LENGTH[type], bytes.slice(0, MAGIC_LENGTH[type]), Kind.bytes);
  cursor.at = MAGIC_LENGTH[type];
  const whole = READERS[type](index, root, cursor);
  data.media = { type, width: cursor.width, height: cursor.height };
  if (!whole) {
    markIncomplete(index, root, bytes.length);
    return;
  }
  raw(index, root, cursor, 'data', bytes.length);
  closeContainer(index, root, bytes.length);
}

/** `image/png 320×200, 1.2 KiB`: what the list and the tree say of a media frame. */
export function mediaSummary(index: SpanIndex): string {
  const media = mediaInfo(index);
  if (!media) return 'media';
  const size = media.width !== null && media.height !== null ? ` ${media.width}×${media.height}` : '';
  return `${media.type}${size}, ${sizeText(index.bytes.length)}`;
}

const baseWalker = protocolWalker('media', walkFrame, (index) => mediaInfo(index)?.type ?? 'media');

export const mediaWalker = {
  ...baseWalker,
  preview(index: SpanIndex, node: number, max: number): string {
    return node === 0 ? mediaSummary(index).slice(0, max) : baseWalker.preview!.call(this, index, node, max);
  },
};
