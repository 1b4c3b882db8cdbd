/**
 * Session comparison output: a text table, a Markdown table and JSON. Total rows first,
 * then one block per connection and direction. Pure string building.
 */
import type { SessionRow, WireSize } from './session.js';
import { leftOutText } from './left-out.js';
import { perMessageFigure } from './schema-share.js';

const int = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const wireCell = (w: WireSize | null): string => (w === null ? '–' : 'unsupported' in w ? 'unsupported' : int(w.total));

const optionalCell = (v: number | { readonly unsupported: string } | null | undefined): string =>
  v == null ? '–' : typeof v === 'number' ? int(v) : 'unsupported';

/**
 * A size of a row with no message in it: "—", as the report and the inspector show it
 * (`0` in every column read as messages that cost nothing).
 */
const sized =
  (cell: (r: SessionRow) => string) =>
  (r: SessionRow): string =>
    r.messages === 0 ? '—' : cell(r);

const COLUMNS: readonly { title: string; right: boolean; cell: (r: SessionRow) => string }[] = [
  { title: 'codec', right: false, cell: (r) => r.label },
  { title: 'messages', right: true, cell: (r) => int(r.messages) + (r.left ? ` (+${int(r.left)} left out)` : '') },
  { title: 'size', right: true, cell: sized((r) => int(r.size)) },
  { title: 'gzip each', right: true, cell: sized((r) => int(r.gzip)) },
  { title: 'deflate each', right: true, cell: sized((r) => int(r.deflate)) },
  { title: 'snappy each', right: true, cell: sized((r) => optionalCell(r.snappy)) },
  { title: 'brotli each', right: true, cell: sized((r) => optionalCell(r.brotli)) },
  { title: 'wire', right: true, cell: sized((r) => int(r.plainWire.total)) },
  { title: 'wire, pmd', right: true, cell: sized((r) => wireCell(r.wire.contextTakeover)) },
  { title: 'wire, pmd no context', right: true, cell: sized((r) => wireCell(r.wire.noContextTakeover)) },
  { title: 'wire, pmd negotiated', right: true, cell: sized((r) => wireCell(r.wire.negotiated)) },
];

function groups(rows: readonly SessionRow[]): [string, SessionRow[]][] {
  const out = new Map<string, SessionRow[]>();
  for (const r of rows) {
    const title =
      r.connectionId === null
        ? 'Total'
        : `Connection ${r.connectionId}, ${r.direction === 'client-to-server' ? 'client → server' : 'server → client'}`;
    if (!out.has(title)) out.set(title, []);
    out.get(title)!.push(r);
  }
  const total = out.get('Total');
  out.delete('Total');
  return total ? [['Total', total], ...out] : [...out];
}

/** Why rows show "unsupported" or left messages out: one line per distinct reason. */
function notes(rows: readonly SessionRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) {
    if (r.connectionId === null) continue;
    if (r.leftReason) seen.add(`${r.label}: ${r.left} message(s) left out; first: ${r.leftReason}`);
    for (const w of Object.values(r.wire))
      if (w && 'unsupported' in w) seen.add(`permessage-deflate: ${w.unsupported}`);
    if (r.brotli && typeof r.brotli === 'object') seen.add(`brotli: ${r.brotli.unsupported}`);
  }
  for (const r of rows) {
    if (r.connectionId !== null) continue;
    if (r.schema) {
      const s = r.schema;
      // Nothing to amortize over when the codec encoded no message.
      if (s.messages === 0)
        seen.add(`${r.label}: schema ${int(s.bytes)} bytes; it encoded no message (${int(r.left)} left out)`);
      else
        seen.add(
          `${r.label}: schema ${int(s.bytes)} bytes, sent once — amortized over the ${int(s.messages)} messages it encoded${r.left ? ` (${int(r.left)} left out)` : ''}, ${perMessageFigure(s.perMessage)} bytes/message; messages + schema ${int(r.size + s.bytes)} bytes`,
        );
    }
    // Every left-out message, grouped by reason with counts (left-out.ts, as the inspector and the report list them).
    if (r.left > 0 && r.codec !== 'captured')
      seen.add(`${r.label}: ${r.left} message(s) the codec cannot hold: ${leftOutText(r)}`);
  }
  return [...seen];
}

const LEGEND =
  'wire = payloads + WebSocket frame headers (2/4/10 bytes, +4 mask client → server); pmd = permessage-deflate with context takeover; "no context" = *_no_context_takeover; "negotiated" = the parameters the capture recorded (– when it recorded none); — = no message in this codec (its messages were all left out: see below).';

export function formatSessionText(rows: readonly SessionRow[], title: string): string {
  const out = [title, ''];
  for (const [name, group] of groups(rows)) {
    const cells = group.map((r) => COLUMNS.map((c) => c.cell(r)));
    const widths = COLUMNS.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i].length)));
    const line = (values: string[]) =>
      values
        .map((v, i) => (COLUMNS[i].right ? v.padStart(widths[i]) : v.padEnd(widths[i])))
        .join('  ')
        .trimEnd();
    out.push(name, line(COLUMNS.map((c) => c.title)), ...cells.map(line), '');
  }
  out.push(LEGEND, ...notes(rows));
  return out.join('\n');
}

export function formatSessionMarkdown(rows: readonly SessionRow[], title: string): string {
  const out = [`## ${title}`, ''];
  for (const [name, group] of groups(rows)) {
    out.push(
      `### ${name}`,
      '',
      `| ${COLUMNS.map((c) => c.title).join(' | ')} |`,
      `| ${COLUMNS.map((c) => (c.right ? '---:' : ':---')).join(' | ')} |`,
    );
    for (const r of group) out.push(`| ${COLUMNS.map((c) => c.cell(r).replace(/\|/g, '\\|')).join(' | ')} |`);
    out.push('');
  }
  out.push(LEGEND, '', ...notes(rows).map((n) => `- ${n}`));
  return out.join('\n');
}

export function formatSessionJson(rows: readonly SessionRow[], meta: Record<string, unknown>): string {
  return JSON.stringify(
    { ...meta, totals: rows.filter((r) => r.connectionId === null), rows: rows.filter((r) => r.connectionId !== null) },
    null,
    2,
  );
}
