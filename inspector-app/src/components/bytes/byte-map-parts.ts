import type { ByteMapRect } from '../../worker/api.js';
import { exactBytes, formatShare } from './share.js';
import { formatBytes } from '../shell/format.js';

/** The hex's tones (hex.css): the picture colours bytes as the hex does. */
export type MapTone = 'key' | 'header' | 'payload' | 'more';

export interface MapPart {
  readonly tone: MapTone;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/**
 * A closed rectangle cut into key, head and value bytes, side by side along its longer
 * side, each part as wide as its share of the rectangle's bytes. "N smaller" is one part.
 */
export function rectParts(r: ByteMapRect): MapPart[] {
  if (r.role === 'more' || r.bytes <= 0) return [{ tone: 'more', x: r.x, y: r.y, w: r.w, h: r.h }];
  const key = Math.max(0, Math.min(r.keyBytes, r.bytes));
  const head = Math.max(0, Math.min(r.headBytes, r.bytes - key));
  const value = r.bytes - key - head;
  const parts: MapPart[] = [];
  const along = r.w >= r.h;
  const length = along ? r.w : r.h;
  let at = along ? r.x : r.y;
  for (const [tone, bytes] of [
    ['key', key],
    ['header', head],
    ['payload', value],
  ] as const) {
    if (bytes <= 0) continue;
    const size = (bytes / r.bytes) * length;
    parts.push(along ? { tone, x: at, y: r.y, w: size, h: r.h } : { tone, x: r.x, y: at, w: r.w, h: size });
    at += size;
  }
  return parts;
}

/** Estimated width of 11 px UI text, so labels are drawn only where they fit. */
const CHAR_PX = 6.4;
const LINE_PX = 13;

/** What fits in the rectangle (its label strip for an open container): label and size, one or two lines, or nothing. */
export function rectLabel(r: ByteMapRect): { lines: readonly string[]; x: number; y: number } | null {
  const size = formatBytes(r.bytes);
  const room = r.w - 6;
  const boxH = r.role === 'container' ? (r.strip ? 16 : 0) : r.h;
  if (boxH < LINE_PX || room < 3 * CHAR_PX) return null;
  const fits = (t: string) => t.length * CHAR_PX <= room;
  const label = r.label;
  let lines: string[];
  if (r.role !== 'container' && boxH >= 2 * LINE_PX + 4 && fits(label)) lines = [label, size];
  else if (fits(`${label} · ${size}`)) lines = [`${label} · ${size}`];
  else if (fits(label)) lines = [label];
  else return null;
  return { lines, x: r.x + 3, y: r.y + 11 };
}

/** The numbers for a hover title and the status line: the path, its bytes split as the hex colours them, its shares. */
export function rectDescription(r: ByteMapRect, parent: ByteMapRect | null, frameBytes: number): string {
  const what =
    r.role === 'more'
      ? `${r.count.toLocaleString('en-US')} smaller items in ${r.path}`
      : r.role === 'own'
        ? `${r.path}: its own key and head`
        : r.count > 1
          ? `${r.path} (×${r.count.toLocaleString('en-US')})`
          : r.path;
  const split =
    r.role === 'more'
      ? ''
      : ` — key ${exactBytes(r.keyBytes)}, head ${exactBytes(r.headBytes)}, value ${exactBytes(Math.max(0, r.bytes - r.keyBytes - r.headBytes))}`;
  const ofParent = parent
    ? `, ${formatShare(r.bytes, parent.bytes)} of ${parent.path} (its ${exactBytes(parent.bytes)})`
    : '';
  return `${what}: ${exactBytes(r.bytes)}${split}; ${formatShare(r.bytes, frameBytes)} of the frame${ofParent}`;
}
