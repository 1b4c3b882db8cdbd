/**
 * The session rows as the view groups them: the codecs' totals, per direction (summed
 * over connections), and per connection (both directions, then each); a figure here is
 * always the sum of the rows under it.
 *
 * Type-only imports of session.ts on purpose: the inspector page and the report import this
 * file, and session.ts pulls in every codec (schema codecs with Node-minded libraries); the
 * page must not load them, only the worker does. session.ts's `totalRow` is `sumRows` with
 * the codec's name and label, so the view's sums and the core's totals are one function.
 */
import type { SessionRow, WireSize, WireVariant } from './session-types.js';
import type { Direction } from './framing.js';
import { mergeLeftOut } from './left-out.js';

export type { SessionRow };

/** Messages left out listed per row (the rest are counted in `left`). */
export const MAX_LISTED_MISMATCHES = 50;

/** session.ts's WIRE_VARIANTS (a value import would load session.ts). */
export const WIRE_ORDER: readonly WireVariant[] = ['contextTakeover', 'noContextTakeover', 'negotiated'];

/** The sum of one codec's rows; a wire variant or a compressor is missing (or unsupported) when any row's is. */
export function sumRows(rows: readonly SessionRow[]): SessionRow {
  const sum = (f: (r: SessionRow) => number): number => rows.reduce((a, r) => a + f(r), 0);
  const wire = {} as Record<WireVariant, WireSize | null>;
  for (const variant of WIRE_ORDER) {
    const sizes = rows.map((r) => r.wire[variant]);
    const unsupported = sizes.find((w): w is { unsupported: string } => w !== null && 'unsupported' in w);
    if (unsupported) wire[variant] = unsupported;
    else if (sizes.length === 0 || sizes.some((w) => w === null)) wire[variant] = null;
    else {
      const known = sizes as { payload: number; headers: number; total: number }[];
      const payload = known.reduce((a, w) => a + w.payload, 0);
      const headers = known.reduce((a, w) => a + w.headers, 0);
      wire[variant] = { payload, headers, total: payload + headers };
    }
  }
  const out: SessionRow = {
    codec: rows[0]?.codec ?? '',
    label: rows[0]?.label ?? '',
    connectionId: null,
    direction: null,
    messages: sum((r) => r.messages),
    size: sum((r) => r.size),
    gzip: sum((r) => r.gzip),
    deflate: sum((r) => r.deflate),
    plainWire: {
      payload: sum((r) => r.plainWire.payload),
      headers: sum((r) => r.plainWire.headers),
      total: sum((r) => r.plainWire.total),
    },
    wire,
    left: sum((r) => r.left),
    leftReason: rows.find((r) => r.leftReason)?.leftReason ?? null,
  };
  const extra: {
    snappy?: number | null;
    brotli?: SessionRow['brotli'];
    schema?: SessionRow['schema'];
    mismatches?: SessionRow['mismatches'];
    leftReasons?: SessionRow['leftReasons'];
  } = {};
  if (rows.some((r) => r.snappy !== undefined))
    extra.snappy = rows.some((r) => r.snappy == null) ? null : sum((r) => r.snappy as number);
  if (rows.some((r) => r.brotli !== undefined)) {
    const why = rows.find((r) => r.brotli != null && typeof r.brotli === 'object');
    extra.brotli = why ? why.brotli : rows.some((r) => r.brotli == null) ? null : sum((r) => r.brotli as number);
  }
  // The schema is sent once for the whole selection: every row of a codec carries the same one.
  if (rows.some((r) => r.schema !== undefined)) extra.schema = rows.find((r) => r.schema)?.schema ?? null;
  if (rows.some((r) => r.leftReasons !== undefined)) extra.leftReasons = mergeLeftOut(rows);
  if (rows.some((r) => r.mismatches !== undefined))
    extra.mismatches = rows
      .flatMap((r) => r.mismatches ?? [])
      .sort((a, b) => a.message - b.message)
      .slice(0, MAX_LISTED_MISMATCHES);
  return { ...out, ...extra };
}

export const DIRECTION_LABEL: Record<Direction, string> = {
  'client-to-server': 'client → server',
  'server-to-client': 'server → client',
};

const sumOf = sumRows;

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
  if (w === null)
    return variant === 'negotiated'
      ? 'the capture does not record the Sec-WebSocket-Extensions negotiated (for every connection summed here)'
      : 'not simulated';
  return 'unsupported' in w ? w.unsupported : null;
}

/** The optional per-message compressors a row set carries (other modules add them): shown only when some row has them. */
export function extraColumns(rows: readonly SessionRow[]): { snappy: boolean; brotli: boolean; schema: boolean } {
  return {
    snappy: rows.some((r) => r.snappy !== undefined),
    brotli: rows.some((r) => r.brotli !== undefined),
    schema: rows.some((r) => r.schema != null),
  };
}

/** A snappy / brotli sum, or why there is none. */
export function compressedCell(
  value: number | { readonly unsupported: string } | null | undefined,
  name: string,
): { bytes: number } | { why: string } {
  if (typeof value === 'number') return { bytes: value };
  if (value && typeof value === 'object') return { why: value.unsupported };
  return { why: `${name} not measured for these messages` };
}
