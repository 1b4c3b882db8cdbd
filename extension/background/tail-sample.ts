/**
 * The live tail under a flood: while a tab's frames wait in the background (flood-hold.ts),
 * its panels get, with each status, a small sample of them — the newest `perConnection`
 * frames of each connection among the items a panel is owed — so the panel shows the stream
 * as it goes without taking it all in. The sample's frames are copied out of their items (the
 * items themselves go out whole, in order, when the hold ends). Bytes keep their item's wire
 * form: a Blob is cut into a Blob of slices (no bytes read here), bytes are copied, base64
 * is decoded and encoded again (older Chrome's JSON messaging). An item whose table does not
 * add up to its bytes gives nothing. Pure: no browser API but Blob; base64 is the tree's one
 * codec (codecs/core/base64.ts).
 */
import { encodeBase64, strictBase64Bytes } from '../../codecs/core/base64.js';
import { checkFrameTable, frameTableOf, wireByteLength } from '../shared/frame-table.js';
import {
  FRAME_COLUMNS,
  type PanelItem,
  type PanelTailItem,
  type WireBytes,
  type WireFrameBytes,
} from '../shared/messages.js';

export interface TailRule {
  /** The newest frames kept of each connection. */
  readonly perConnection: number;
  /** At most this many frames in one sample (a page with hundreds of flooding sockets). */
  readonly maxFrames: number;
}

export const DEFAULT_TAIL_RULE: TailRule = { perConnection: 20, maxFrames: 400 };

type EventsItem = Extract<PanelItem, { type: 'events' }>;

/** A frame table's rows as numbers (base64 decoded), or null when it is not whole rows. */
export function tableOf(table: WireBytes): Float64Array | null {
  if ('bytes' in table) return table.bytes instanceof Uint8Array ? frameTableOf(table.bytes) : null;
  const bytes = strictBase64Bytes(table.b64);
  return bytes === null ? null : frameTableOf(bytes);
}

/** Frames per connection (`${documentId}:${socketId}`) of one frame table, added to `into`. */
export function countByConnection(
  documentId: string,
  frameTable: WireBytes,
  into = new Map<string, number>(),
): Map<string, number> {
  const table = tableOf(frameTable);
  if (!table) return into;
  for (let r = 0; r < table.length; r += FRAME_COLUMNS) {
    const id = `${documentId}:${table[r]!}`;
    into.set(id, (into.get(id) ?? 0) + 1);
  }
  return into;
}

/**
 * The newest frames of each connection in `newestFirst` (a tab's items, newest first), as
 * one tail item per source item that gave any, oldest first, frames in their order.
 */
export function sampleTail(newestFirst: readonly PanelItem[], rule: TailRule = DEFAULT_TAIL_RULE): PanelTailItem[] {
  const taken = new Map<string, number>();
  let total = 0;
  const out: PanelTailItem[] = [];
  for (const item of newestFirst) {
    if (total >= rule.maxFrames) break;
    if (item.type !== 'events') continue;
    const table = tableOf(item.frameTable);
    const byteLength = wireByteLength(item.frameBytes);
    if (!table) continue;
    const count = table.length / FRAME_COLUMNS;
    if (!checkFrameTable(table, count, byteLength)) continue;
    // Each frame's offset, then the rows wanted, newest first.
    const starts = new Float64Array(count);
    for (let i = 1; i < count; i++) starts[i] = starts[i - 1]! + table[(i - 1) * FRAME_COLUMNS + 3]!;
    const rows: number[] = [];
    for (let i = count - 1; i >= 0 && total < rule.maxFrames; i--) {
      const id = `${item.documentId}:${table[i * FRAME_COLUMNS]!}`;
      const n = taken.get(id) ?? 0;
      if (n >= rule.perConnection) continue;
      taken.set(id, n + 1);
      rows.push(i);
      total++;
    }
    if (!rows.length) continue;
    rows.reverse();
    const sample = copyRows(item, table, starts, rows);
    if (sample) out.push(sample);
  }
  return out.reverse();
}

function copyRows(
  item: EventsItem,
  table: Float64Array,
  starts: Float64Array,
  rows: readonly number[],
): PanelTailItem | null {
  const outTable = new Float64Array(rows.length * FRAME_COLUMNS);
  const ranges: [number, number][] = [];
  rows.forEach((row, k) => {
    for (let c = 0; c < FRAME_COLUMNS; c++) outTable[k * FRAME_COLUMNS + c] = table[row * FRAME_COLUMNS + c]!;
    const start = starts[row]!;
    ranges.push([start, start + table[row * FRAME_COLUMNS + 3]!]);
  });
  const tableBytes = new Uint8Array(outTable.buffer);
  const frameBytes = cutBytes(item.frameBytes, ranges);
  if (!frameBytes) return null;
  const frameTable: WireBytes =
    'bytes' in item.frameTable || !('b64' in item.frameTable)
      ? { bytes: tableBytes }
      : { b64: encodeBase64(tableBytes) };
  return { documentId: item.documentId, frameTable, frameBytes };
}

/** The byte ranges of wire bytes, back to back, in the same wire form; null when unreadable. */
function cutBytes(data: WireFrameBytes, ranges: readonly [number, number][]): WireFrameBytes | null {
  if ('blob' in data) return { blob: new Blob(ranges.map(([from, to]) => data.blob.slice(from, to))) };
  if ('bytes' in data) {
    const out = new Uint8Array(ranges.reduce((n, [from, to]) => n + to - from, 0));
    let at = 0;
    for (const [from, to] of ranges) {
      out.set(data.bytes.subarray(from, to), at);
      at += to - from;
    }
    return { bytes: out };
  }
  const bytes = strictBase64Bytes(data.b64);
  if (bytes === null) return null;
  const cut = cutBytes({ bytes }, ranges);
  return cut !== null && 'bytes' in cut ? { b64: encodeBase64(cut.bytes) } : null;
}
