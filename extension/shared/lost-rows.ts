/** The shape check of a dropped frame's row (messages.ts `LostFrameRow`), for the relay and the background. */
import { MAX_LOST_FRAME_ROWS, type LostFrameRow, type LostFrameWhy } from './messages.js';

const WHYS: readonly LostFrameWhy[] = ['too-large', 'hook-limit', 'unreadable', 'unsent'];

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function isLostFrameRow(v: unknown): v is LostFrameRow {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    isCount(r.socketId) &&
    (r.flags === 0 || r.flags === 1 || r.flags === 2 || r.flags === 3) &&
    typeof r.time === 'number' &&
    Number.isFinite(r.time) &&
    isCount(r.length) &&
    WHYS.includes(r.why as LostFrameWhy)
  );
}

/** A checked copy of a list of rows (each field read once), or null when it is not one. */
export function parseLostRows(v: unknown): LostFrameRow[] | null {
  if (!Array.isArray(v) || v.length > MAX_LOST_FRAME_ROWS) return null;
  const out: LostFrameRow[] = [];
  for (let i = 0; i < v.length; i++) {
    const item = v[i] as Record<string, unknown> | null;
    if (typeof item !== 'object' || item === null) return null;
    const row = { socketId: item.socketId, flags: item.flags, time: item.time, length: item.length, why: item.why };
    if (!isLostFrameRow(row)) return null;
    out.push(row);
  }
  return out;
}
