/**
 * What a `wirescope proxy` recording measured on the wire: per connection and direction,
 * the bytes the messages took on the client's leg and on the upstream's leg (frame heads and
 * payload as each leg's socket carried them, compressed where that leg negotiated
 * permessage-deflate), beside their plain payload. The session comparison's wire columns are
 * simulated; these are counted.
 */
import type { LegBytes } from '../../capture/types.js';
import type { Direction } from './framing.js';

export interface MeasuredMessage {
  readonly connectionId: string;
  readonly direction: Direction;
  readonly data: Uint8Array;
  readonly legBytes?: LegBytes;
}

export interface MeasuredLegsRow {
  /** null: every connection. */
  readonly connectionId: string | null;
  readonly direction: Direction;
  readonly messages: number;
  readonly payload: number;
  /** Summed over the messages that crossed the leg (`clientMessages` of them). */
  readonly client: number;
  readonly clientMessages: number;
  readonly upstream: number;
  readonly upstreamMessages: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The rows (totals per direction first, then each connection's), or [] when nothing was measured. */
export function measuredLegs(messages: readonly MeasuredMessage[]): MeasuredLegsRow[] {
  const byKey = new Map<string, Mutable<MeasuredLegsRow>>();
  const add = (connectionId: string | null, m: MeasuredMessage, legs: LegBytes): void => {
    const key = `${m.direction}\u0000${connectionId ?? ''}`;
    let row = byKey.get(key);
    if (!row) {
      row = {
        connectionId,
        direction: m.direction,
        messages: 0,
        payload: 0,
        client: 0,
        clientMessages: 0,
        upstream: 0,
        upstreamMessages: 0,
      };
      byKey.set(key, row);
    }
    row.messages++;
    row.payload += m.data.length;
    if (legs.client !== null) {
      row.client += legs.client;
      row.clientMessages++;
    }
    if (legs.upstream !== null) {
      row.upstream += legs.upstream;
      row.upstreamMessages++;
    }
  };
  for (const m of messages) {
    if (!m.legBytes) continue;
    add(null, m, m.legBytes);
    add(m.connectionId, m, m.legBytes);
  }
  const rows = [...byKey.values()];
  const order = (r: MeasuredLegsRow) => (r.direction === 'client-to-server' ? 0 : 1);
  return [
    ...rows.filter((r) => r.connectionId === null).sort((a, b) => order(a) - order(b)),
    ...rows.filter((r) => r.connectionId !== null),
  ];
}

const TITLES = ['connection', 'direction', 'messages', 'payload B', 'client leg B', 'upstream leg B'];

function cells(r: MeasuredLegsRow): string[] {
  const leg = (bytes: number, crossed: number) =>
    crossed === r.messages ? bytes.toLocaleString('en-US') : `${bytes.toLocaleString('en-US')} (${crossed} crossed)`;
  return [
    r.connectionId ?? 'all',
    r.direction === 'client-to-server' ? 'client → server' : 'server → client',
    r.messages.toLocaleString('en-US'),
    r.payload.toLocaleString('en-US'),
    leg(r.client, r.clientMessages),
    leg(r.upstream, r.upstreamMessages),
  ];
}

const HEADING =
  'Measured on the wire by wirescope proxy (bytes each leg’s socket carried: frame heads + payload, compressed where that leg negotiated permessage-deflate)';

export function formatMeasuredLegsText(rows: readonly MeasuredLegsRow[]): string {
  const table = [TITLES, ...rows.map(cells)];
  const widths = TITLES.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row
      .map((v, i) => (i >= 2 ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [HEADING, ...table.map(line)].join('\n');
}

export function formatMeasuredLegsMarkdown(rows: readonly MeasuredLegsRow[]): string {
  return [
    `### ${HEADING}`,
    '',
    `| ${TITLES.join(' | ')} |`,
    `| :--- | :--- | ${TITLES.slice(2)
      .map(() => '---:')
      .join(' | ')} |`,
    ...rows.map((r) => `| ${cells(r).join(' | ')} |`),
  ].join('\n');
}
