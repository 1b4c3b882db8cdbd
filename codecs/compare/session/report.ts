/**
 * A session comparison users can share: Markdown and a self-contained HTML
 * page with the session totals per codec, per direction and per connection, the
 * cumulative-bytes chart (inline SVG in HTML) and the machine it ran on. The machine is
 * passed in (the app reads navigator, the CLI os), never read here. No DOM: strings only,
 * and every piece of frame- or capture-derived text (connection ids, URLs, extension
 * headers, reasons) goes through `escapeHtml` in the HTML.
 */
import { chartGeometry, PARTIAL_END_RADIUS, PARTIAL_OPACITY, type ChartGeometry } from './chart-geometry.js';
import { coverageText, partialNote } from './chart-legend.js';
import type { SessionChartData } from './cumulative.js';
import { leftOutText } from './left-out.js';
import { schemaShareText } from './schema-share.js';
import {
  compressedCell,
  DIRECTION_LABEL,
  extraColumns,
  perConnection,
  perDirection,
  totalsOf,
  WIRE_ORDER as WIRE_VARIANTS,
  WIRE_TITLES,
  wireWhy,
  type SessionRow,
} from './groups.js';

export interface MachineInfo {
  /** Browser or runtime, e.g. the user agent or "Node v22.1.0". */
  readonly runtime: string;
  readonly os: string;
  readonly cores: number | null;
}

export interface ReportConnection {
  readonly connectionId: string;
  readonly url: string;
  /** The negotiated Sec-WebSocket-Extensions; null when the capture does not record it. */
  readonly extensions: string | null;
}

export interface SessionReportInput {
  readonly title: string;
  /** What was compared ("connection #1", "the filter's 120 frames", …). */
  readonly scope: string;
  readonly rows: readonly SessionRow[];
  readonly chart: SessionChartData | null;
  readonly connections: readonly ReportConnection[];
  readonly machine: MachineInfo;
  /** The deflate engine ("fflate", "zlib"). */
  readonly engine: string;
  /** ISO time the report was made. */
  readonly generatedAt: string;
  /** The comparison's wall time, when measured. */
  readonly elapsedMs?: number | null;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** Markdown table cells and inline text: pipes, backticks, brackets, angle brackets and line breaks cannot end or start markup. */
const escapeMd = (text: string): string => text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');

const int = (n: number): string => Math.round(n).toLocaleString('en-US');

interface Cell {
  readonly text: string;
  /** Why a cell has no figure. */
  readonly why?: string;
  /** false: `why` is only the cell's tooltip (the report lists it elsewhere). */
  readonly listed?: boolean;
}

type Extras = ReturnType<typeof extraColumns>;

function columnTitles(x: Extras): string[] {
  return [
    'codec',
    'messages',
    'size',
    'gzip each',
    'deflate each',
    ...(x.snappy ? ['snappy each'] : []),
    ...(x.brotli ? ['brotli each'] : []),
    ...(x.schema ? ['schema (sent once)'] : []),
    'wire, plain',
    ...WIRE_VARIANTS.map((v) => WIRE_TITLES[v]),
  ];
}

function cells(r: SessionRow, x: Extras): Cell[] {
  const empty = r.messages === 0;
  const none: Cell = {
    text: '—',
    why: r.leftReason ? `no message in this codec: ${r.leftReason}` : 'no data messages',
  };
  const compressed = (value: SessionRow['brotli'], name: string): Cell => {
    if (empty) return none;
    const c = compressedCell(value, name);
    return 'bytes' in c ? { text: int(c.bytes) } : { text: '—', why: c.why };
  };
  const out: Cell[] = [
    { text: r.label },
    // Its reasons are listed once, grouped, under "Messages left out" (leftOut), not per cell.
    {
      text: int(r.messages) + (r.left ? ` (+${int(r.left)} left out)` : ''),
      why: r.left ? leftOutText(r) : undefined,
      listed: false,
    },
    empty ? none : { text: int(r.size) },
    empty ? none : { text: int(r.gzip) },
    empty ? none : { text: int(r.deflate) },
  ];
  if (x.snappy) out.push(compressed(r.snappy, 'snappy'));
  if (x.brotli) out.push(compressed(r.brotli, 'brotli'));
  if (x.schema)
    out.push(
      r.schema
        ? { text: schemaShareText(r.schema, int(r.schema.bytes), '') }
        : { text: '—', why: 'no schema: the codec describes itself' },
    );
  out.push(empty ? none : { text: int(r.plainWire.total) });
  for (const v of WIRE_VARIANTS) {
    const w = r.wire[v];
    const why = wireWhy(w, v);
    // A codec with no messages has no wire size: its reason, not 0.
    out.push(
      empty
        ? none
        : why !== null || w === null || 'unsupported' in w
          ? { text: '—', why: why ?? 'unknown' }
          : { text: int(w.total) },
    );
  }
  return out;
}

interface Section {
  readonly heading: string;
  readonly rows: readonly SessionRow[];
}

function sections(rows: readonly SessionRow[], connectionName: (id: string) => string): Section[] {
  const out: Section[] = [{ heading: 'Session totals', rows: totalsOf(rows) }];
  for (const d of perDirection(rows))
    out.push({ heading: `All connections, ${DIRECTION_LABEL[d.direction]}`, rows: d.rows });
  for (const c of perConnection(rows)) {
    for (const d of c.directions)
      out.push({ heading: `${connectionName(c.connectionId)}, ${DIRECTION_LABEL[d.direction]}`, rows: d.rows });
  }
  return out;
}

/** Distinct reasons behind the "—" cells and left-out messages. */
function reasons(rows: readonly SessionRow[], x: Extras): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const c of cells(r, x)) if (c.why && c.listed !== false) seen.add(`${r.label}: ${c.why}`);
  return [...seen];
}

/** Every left-out message of the session, per codec, grouped by reason with counts (left-out.ts, as the inspector lists them). */
function leftOut(rows: readonly SessionRow[]): string[] {
  return totalsOf(rows)
    .filter((r) => r.left > 0)
    .map((r) => `${r.label}, ${int(r.left)} of ${int(r.messages + r.left)} messages: ${leftOutText(r)}`);
}

const LEGEND =
  'size = the messages as each codec encodes them; gzip / deflate / snappy / brotli each = every message compressed alone; schema = a schema codec\'s schema, sent once, and its share per message it encoded; wire = payloads + WebSocket frame headers (2/4/10 bytes, + the 4-byte mask client → server); permessage-deflate (RFC 7692) = one raw-deflate stream per direction with context takeover; "no context takeover" resets it per message; "as negotiated" uses the Sec-WebSocket-Extensions the capture recorded.';

function machineLine(m: MachineInfo): string {
  return `${m.runtime}; ${m.os}; ${m.cores === null ? 'cores unknown' : `${m.cores} logical cores`}`;
}

const connectionNamer =
  (connections: readonly ReportConnection[]) =>
  (id: string): string => {
    const i = connections.findIndex((c) => c.connectionId === id);
    return i >= 0 ? `Connection ${i + 1}` : `Connection ${id}`;
  };

export function sessionReportMarkdown(input: SessionReportInput): string {
  const name = connectionNamer(input.connections);
  const x = extraColumns(input.rows);
  const titles = columnTitles(x);
  const out = [
    `# ${escapeMd(input.title)}`,
    '',
    `- Compared: ${escapeMd(input.scope)}`,
    `- Machine: ${escapeMd(machineLine(input.machine))}`,
    `- Deflate engine: ${escapeMd(input.engine)}`,
    `- Generated: ${escapeMd(input.generatedAt)}`,
  ];
  if (input.elapsedMs != null) out.push(`- Comparison time: ${(input.elapsedMs / 1000).toFixed(2)} s`);
  out.push('', '## Connections', '');
  for (const [i, c] of input.connections.entries())
    out.push(
      `${i + 1}. ${escapeMd(c.url || '(no URL recorded)')} (id ${escapeMd(c.connectionId)}); extensions: ${c.extensions === null ? 'not recorded' : c.extensions === '' ? 'none negotiated' : escapeMd(c.extensions)}`,
    );
  for (const s of sections(input.rows, name)) {
    out.push(
      '',
      `## ${escapeMd(s.heading)}`,
      '',
      `| ${titles.join(' | ')} |`,
      `| :--- | ${titles
        .slice(1)
        .map(() => '---:')
        .join(' | ')} |`,
    );
    for (const r of s.rows)
      out.push(
        `| ${cells(r, x)
          .map((c) => escapeMd(c.text))
          .join(' | ')} |`,
      );
  }
  if (input.chart) {
    // A codec that left messages out sums fewer messages: its column says how many (chart-legend.ts).
    const heading = (s: SessionChartData['series'][number]): string =>
      escapeMd(coverageText(s) ? `${s.label}, ${coverageText(s)}` : s.label);
    out.push(
      '',
      '## Cumulative bytes (message bytes before compression)',
      '',
      `| messages | ${input.chart.series.map(heading).join(' | ')} |`,
      `| ---: | ${input.chart.series.map(() => '---:').join(' | ')} |`,
    );
    const step = Math.max(1, Math.ceil(input.chart.at.length / 10));
    for (let k = 0; k < input.chart.at.length; k++) {
      if (k % step !== step - 1 && k !== input.chart.at.length - 1) continue;
      out.push(`| ${int(input.chart.at[k])} | ${input.chart.series.map((s) => int(s.bytes[k])).join(' | ')} |`);
    }
    const note = partialNote(input.chart.series, 'column');
    if (note) out.push('', escapeMd(note));
  }
  const why = reasons(input.rows, x);
  const left = leftOut(input.rows);
  out.push(
    '',
    LEGEND,
    ...(left.length ? ['', '### Messages left out', '', ...left.map((w) => `- ${escapeMd(w)}`)] : []),
    ...(why.length ? ['', '### Why some cells are empty', '', ...why.map((w) => `- ${escapeMd(w)}`)] : []),
    '',
  );
  return out.join('\n');
}

/** The chart as an SVG string (numbers from chartGeometry; labels escaped). */
export function chartSvg(g: ChartGeometry): string {
  const { x0, x1, y0, y1 } = g.plot;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${g.width} ${g.height}" role="img" aria-label="${escapeHtml(g.summary)}" class="chart">`,
    `<title>${escapeHtml(g.summary)}</title>`,
  ];
  for (const t of g.yTicks)
    parts.push(
      `<line x1="${x0}" x2="${x1}" y1="${t.pos}" y2="${t.pos}" stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="2 3"/>`,
      `<text x="${x0 - 6}" y="${t.pos + 4}" text-anchor="end" font-size="11" fill="currentColor">${escapeHtml(t.text)}</text>`,
    );
  parts.push(
    `<line x1="${x0}" x2="${x0}" y1="${y0}" y2="${y1}" stroke="currentColor" stroke-opacity="0.6"/>`,
    `<line x1="${x0}" x2="${x1}" y1="${y0}" y2="${y0}" stroke="currentColor" stroke-opacity="0.6"/>`,
  );
  for (const t of g.xTicks)
    parts.push(
      `<text x="${t.pos}" y="${y0 + 16}" text-anchor="middle" font-size="11" fill="currentColor">${escapeHtml(t.text)}</text>`,
    );
  parts.push(
    `<text x="${(x0 + x1) / 2}" y="${g.height - 4}" text-anchor="middle" font-size="11" fill="currentColor">messages</text>`,
  );
  for (const l of g.lines) {
    parts.push(
      `<polyline points="${l.points}" fill="none" stroke="${l.colour}" stroke-width="2"${l.dash ? ` stroke-dasharray="${l.dash}"` : ''}${l.partial ? ` stroke-opacity="${PARTIAL_OPACITY}"` : ''}><title>${escapeHtml(l.legend)}</title></polyline>`,
    );
    if (l.partial)
      parts.push(
        `<circle cx="${l.end.x}" cy="${l.end.y}" r="${PARTIAL_END_RADIUS}" fill="none" stroke="${l.colour}" stroke-width="2"/>`,
      );
  }
  parts.push('</svg>');
  return parts.join('');
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1b1b;background:#fff}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #bbb;padding:.25rem .5rem}td{text-align:right}th[scope=row]{text-align:left}
caption{text-align:left;font-weight:600;padding:.25rem 0}.chart{max-width:820px;width:100%}.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem}
.muted{color:#555}@media (prefers-color-scheme:dark){body{color:#e6e6e6;background:#1e1e1e}th,td{border-color:#555}.muted{color:#aaa}}`;

export function sessionReportHtml(input: SessionReportInput): string {
  const name = connectionNamer(input.connections);
  const x = extraColumns(input.rows);
  const titles = columnTitles(x);
  const e = escapeHtml;
  const out = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    // The report is data: nothing in it runs, loads or submits.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${e(input.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${e(input.title)}</h1>`,
    '<ul>',
    `<li>Compared: ${e(input.scope)}</li>`,
    `<li>Machine: ${e(machineLine(input.machine))}</li>`,
    `<li>Deflate engine: ${e(input.engine)}</li>`,
    `<li>Generated: ${e(input.generatedAt)}</li>`,
    ...(input.elapsedMs != null ? [`<li>Comparison time: ${(input.elapsedMs / 1000).toFixed(2)} s</li>`] : []),
    '</ul>',
    '<h2>Connections</h2><ol>',
    ...input.connections.map(
      (c) =>
        `<li>${e(c.url || '(no URL recorded)')} <span class="muted">(id ${e(c.connectionId)}); extensions: ${c.extensions === null ? 'not recorded' : c.extensions === '' ? 'none negotiated' : e(c.extensions)}</span></li>`,
    ),
    '</ol>',
  ];
  if (input.chart) {
    const g = chartGeometry(input.chart);
    out.push(
      '<h2>Cumulative bytes over the session</h2>',
      '<p class="muted">Message bytes before compression, per codec.</p>',
      chartSvg(g),
      '<ul class="legend">',
    );
    for (const l of g.lines) {
      const mark = l.partial
        ? `<circle cx="25" cy="5" r="3.5" fill="none" stroke="${l.colour}" stroke-width="1.5"/>`
        : '';
      out.push(
        `<li><svg width="30" height="10" aria-hidden="true"><line x1="0" x2="24" y1="5" y2="5" stroke="${l.colour}" stroke-width="2"${l.dash ? ` stroke-dasharray="${l.dash}"` : ''}${l.partial ? ` stroke-opacity="${PARTIAL_OPACITY}"` : ''}/>${mark}</svg> ${e(l.legend)}</li>`,
      );
    }
    out.push('</ul>');
    if (g.note) out.push(`<p class="muted">${e(g.note)}</p>`);
  }
  for (const s of sections(input.rows, name)) {
    out.push(
      `<table><caption>${e(s.heading)}</caption><thead><tr>${titles.map((t) => `<th scope="col">${e(t)}</th>`).join('')}</tr></thead><tbody>`,
    );
    for (const r of s.rows) {
      const [first, ...rest] = cells(r, x);
      out.push(
        `<tr><th scope="row">${e(first.text)}</th>${rest.map((c) => `<td${c.why ? ` title="${e(c.why)}"` : ''}>${e(c.text)}</td>`).join('')}</tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  const why = reasons(input.rows, x);
  out.push(`<p class="muted">${e(LEGEND)}</p>`);
  const left = leftOut(input.rows);
  if (left.length) out.push('<h3>Messages left out</h3><ul>', ...left.map((w) => `<li>${e(w)}</li>`), '</ul>');
  if (why.length) out.push('<h3>Why some cells are empty</h3><ul>', ...why.map((w) => `<li>${e(w)}</li>`), '</ul>');
  out.push('</body></html>', '');
  return out.join('\n');
}
