/**
 * The background's flood messages → the app's: `panel-held` (what is held, the rates, per
 * connection) becomes `held`, and `panel-tail` (the live tail: the newest held frames,
 * copied) becomes `tail`, its frames read from their table and bytes as a batch's are (every
 * row checked; an item that does not add up gives no frame). Each tail frame gets its own
 * small buffer: the sample is a few hundred frames at most. Shapes are checked, fields that
 * do not fit are left out.
 */
import type { HeldConnection, HostMessage, WireFrame } from '../../inspector-app/src/protocol/messages.js';
import {
  FRAME_BINARY,
  FRAME_COLUMNS,
  FRAME_RECEIVED,
  type PanelHeld,
  type PanelTail,
  type PanelTailItem,
} from '../shared/messages.js';
import { readFrames } from './convert.js';

const isRate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The live tail, by shape (its items' bytes are checked when read). */
export function isPanelTail(v: unknown): v is PanelTail {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return (
    t.type === 'panel-tail' &&
    Array.isArray(t.items) &&
    t.items.every(
      (i: unknown) =>
        typeof i === 'object' &&
        i !== null &&
        typeof (i as PanelTailItem).documentId === 'string' &&
        typeof (i as PanelTailItem).frameTable === 'object' &&
        (i as PanelTailItem).frameTable !== null &&
        typeof (i as PanelTailItem).frameBytes === 'object' &&
        (i as PanelTailItem).frameBytes !== null,
    )
  );
}

/** `held` for the app: the count, and the rates and connections where they are well formed. */
export function heldMessage(held: PanelHeld): HostMessage {
  const connections = Array.isArray(held.connections)
    ? held.connections.filter(
        (c): c is HeldConnection =>
          typeof c === 'object' &&
          c !== null &&
          typeof c.connectionId === 'string' &&
          isRate(c.frames) &&
          isRate(c.perSecond),
      )
    : undefined;
  return {
    type: 'held',
    frames: held.frames,
    bytes: held.bytes,
    ...(isRate(held.arriving) ? { arriving: held.arriving } : {}),
    ...(isRate(held.heldPerSecond) ? { heldPerSecond: held.heldPerSecond } : {}),
    ...(connections ? { connections } : {}),
  };
}

/** The tail's frames, in order; its items' Blobs must have been read into bytes first (port-transport.ts). */
export function tailMessage(items: readonly PanelTailItem[]): HostMessage {
  const frames: WireFrame[] = [];
  for (const item of items) {
    const read = readFrames({ events: [], frameTable: item.frameTable, frameBytes: item.frameBytes });
    if (!read) continue;
    let offset = 0;
    for (let i = 0; i < read.count; i++) {
      const r = i * FRAME_COLUMNS;
      const flags = read.table[r + 1]!;
      const length = read.table[r + 3]!;
      frames.push({
        connectionId: `${item.documentId}:${read.table[r]!}`,
        direction: flags & FRAME_RECEIVED ? 'received' : 'sent',
        time: read.table[r + 2]!,
        opcode: flags & FRAME_BINARY ? 'binary' : 'text',
        data: read.bytes.slice(offset, offset + length),
      });
      offset += length;
    }
  }
  return { type: 'tail', frames };
}
