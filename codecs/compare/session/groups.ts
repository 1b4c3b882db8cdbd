/**
 * The session rows as the view groups them: the codecs' totals, per direction (summed
 * over connections), and per connection (both directions, then each). Sums go through
 * codecs' `totalRow`, so a figure here is always the sum of the rows under it.
 */
import { totalRow, type SessionRow, type WireSize, type WireVariant } from './session.js';
import type { Direction } from './framing.js';

export const DIRECTION_LABEL: Record<Direction, string> = { 'client-to-server': 'client → server', 'server-to-client': 'server → client' };

/** A row's sum under a label that keeps the codec's own (totalRow knows only the built-in names). */
function sumOf(rows: readonly SessionRow[]): SessionRow {
  return { ...totalRow(rows[0].codec, null, rows), label: rows[0].label };
}

function byCodec(rows: readonly SessionRow[]): SessionRow[][] {
  const m = new Map<string, SessionRow[]>();
  for (const r of rows) {
    const list = m.get(r.codec);
    if (list) list.push(r);
    else m.set(r.codec, [r]);
  }
  return [...m.values()];
}

export const totalsOf = (rows: readonly SessionRow[]): SessionRow[] => rows.filter((r) => r.connectionId === null);

export function perDirection(rows: readonly SessionRow[]): { direction: Direction; rows: SessionRow[] }[] {
  const out: { direction: Direction; rows: SessionRow[] }[] = [];
  for (const direction of ['client-to-server', 'server-to-client'] as const) {
    const mine = rows.filter((r) => r.connectionId !== null && r.direction === direction);
    if (mine.length) out.push({ direction, rows: byCodec(mine).map(sumOf) });
  }
  return out;
}

export interface ConnectionGroup {
  readonly connectionId: string;
  readonly both: readonly SessionRow[];
  readonly directions: readonly { direction: Direction; rows: readonly SessionRow[] }[];
}

export function perConnection(rows: readonly SessionRow[]): ConnectionGroup[] {
  // One pass into a map: a capture may hold thousands of connections.
  const byId = new Map<string, SessionRow[]>();
  for (const r of rows) {
    if (r.connectionId === null) continue;
    const list = byId.get(r.connectionId);
    if (list) list.push(r);
    else byId.set(r.connectionId, [r]);
  }
  return [...byId].map(([connectionId, mine]) => {
    const directions = (['client-to-server', 'server-to-client'] as const)
      .map((direction) => ({ direction, rows: mine.filter((r) => r.direction === direction) }))
      .filter((d) => d.rows.length > 0);
    return { connectionId, both: byCodec(mine).map(sumOf), directions };
  });
}

export const WIRE_TITLES: Record<WireVariant, string> = {
  contextTakeover: 'wire, permessage-deflate',
  noContextTakeover: 'wire, pmd no context takeover',
  negotiated: 'wire, as negotiated',
};

/** Why a wire cell has no figure. */
export function wireWhy(w: WireSize | null, variant: WireVariant): string | null {
  if (w === null) return variant === 'negotiated' ? 'the capture does not record the Sec-WebSocket-Extensions negotiated (for every connection summed here)' : 'not simulated';
  return 'unsupported' in w ? w.unsupported : null;
}
