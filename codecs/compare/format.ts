/**
 * Comparison output: a plain text table (terminals), a Markdown table in the shape of
 * json-joy's benchmark reports (codec, size, gzip, deflate, encode ops/s, decode ops/s,
 * lossless), and JSON. Pure string building.
 */
import type { Row } from './compare.js';
import type { Timing } from './timing.js';
import type { SchemaActual } from './schema/actuals.js';
import type { KeyOverhead } from './keys.js';

const int = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Operations per second with 3 significant digits ('–' without a measurement). */
export function opsText(t: Timing | null): string {
  if (!t || !Number.isFinite(t.medianMs)) return '–';
  if (!Number.isFinite(t.opsPerSec)) return '> 1e6';
  const ops = t.opsPerSec;
  return ops >= 100 ? int(ops) : ops.toPrecision(3);
}

/** The unit a time is shown in, picked by its size: µs below 1 ms, ms from 1 ms (never `0.00 ms`). */
function timeUnit(ms: number): readonly [scale: number, unit: string] {
  return ms < 1 ? [1000, 'µs'] : [1, 'ms'];
}

/** Three significant digits at most, never exponent notation: `2.10`, `19.9`, `850`. */
const timeDigits = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/**
 * One time in milliseconds as the CLI and the inspector print it: `0.85 µs`, `412 µs`,
 * `5.02 ms`, `140 ms`. Shared so the Compare tab's chart and `wirescope compare` follow one rule.
 */
export function durationText(ms: number): string {
  const [scale, unit] = timeUnit(ms);
  return `${timeDigits(ms * scale)} ${unit}`;
}

/**
 * Zero as a scale's first tick, in the unit its largest tick (`like`, in ms) is printed in:
 * `0 ms` beside `70.0 ms`, `0 µs` beside `412 µs` — durationText(0) reads `0.00 µs`, a
 * measurement's digits in another unit than the ticks beside it.
 */
export function zeroDurationText(like: number): string {
  return `0 ${timeUnit(like)[1]}`;
}

/**
 * Median with the spread: `12.3 ms (11.9–14.0)`; below 1 ms in µs, as the browser's Compare
 * tab shows times (`2.10 µs (1.90–4.20)`, `850 µs (500–1200)`), never `0.00 ms`. The
 * median picks the unit; the spread is in the same unit.
 */
export function msText(t: Timing | null): string {
  if (!t || !Number.isFinite(t.medianMs)) return '–';
  const [scale, unit] = timeUnit(t.medianMs);
  const f = (ms: number): string => timeDigits(ms * scale);
  return t.runs > 1 ? `${f(t.medianMs)} ${unit} (${f(t.minMs)}–${f(t.maxMs)})` : `${f(t.medianMs)} ${unit}`;
}

export function losslessText(row: Row): string {
  if (row.unsupported !== null) return `unsupported: ${row.unsupported}`;
  if (row.decodeError) return `no: decoder failed: ${row.decodeError}`;
  return row.lossless ? 'yes' : `no: ${row.lost.join(', ')}`;
}

interface Column {
  readonly title: string;
  readonly right: boolean;
  readonly cell: (row: Row) => string;
}

const sizeCell =
  (pick: (r: Extract<Row, { unsupported: null }>) => number | null) =>
  (row: Row): string => {
    if (row.unsupported !== null) return '–';
    const n = pick(row);
    return n === null ? '–' : int(n);
  };

function columns(withTimes: boolean): Column[] {
  const cols: Column[] = [
    { title: 'codec', right: false, cell: (r) => r.label },
    { title: 'size', right: true, cell: sizeCell((r) => r.size) },
    { title: 'gzip', right: true, cell: sizeCell((r) => r.gzip) },
    { title: 'deflate', right: true, cell: sizeCell((r) => r.deflate) },
    { title: 'encode ops/s', right: true, cell: (r) => (r.unsupported === null ? opsText(r.encode) : '–') },
    { title: 'decode ops/s', right: true, cell: (r) => (r.unsupported === null ? opsText(r.decode) : '–') },
  ];
  if (withTimes) {
    cols.push(
      { title: 'encode', right: true, cell: (r) => (r.unsupported === null ? msText(r.encode) : '–') },
      { title: 'decode', right: true, cell: (r) => (r.unsupported === null ? msText(r.decode) : '–') },
    );
  }
  cols.push({ title: 'lossless', right: false, cell: losslessText });
  return cols;
}

/** Why a row shows "–" in some cell (no dash without a reason); empty when it shows none. */
export function dashReasons(row: Row): string[] {
  if (row.unsupported !== null) return [row.unsupported];
  const out: string[] = [];
  if (row.gzip === null || row.deflate === null) out.push('gzip and deflate not measured (compression off)');
  if (!Number.isFinite(row.encode.medianMs)) out.push('encode: no timed run (cancelled)');
  if (row.decode === null) out.push(`decode: the decoder failed: ${row.decodeError ?? 'unknown error'}`);
  else if (!Number.isFinite(row.decode.medianMs)) out.push('decode: no timed run (cancelled)');
  return out;
}

/** An aligned plain-text table with median (min–max) times, then each row's notes. */
export function formatText(rows: readonly Row[]): string {
  const cols = columns(true);
  const cells = rows.map((r) => cols.map((c) => c.cell(r)));
  const widths = cols.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i].length)));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => (i === values.length - 1 ? v : cols[i].right ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(cols.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
  const notes = [
    ...rows.flatMap((r) => dashReasons(r).map((n) => `${r.label}: –: ${n}`)),
    ...rows.flatMap((r) => r.notes.map((n) => `${r.label}: ${n}`)),
  ];
  if (notes.length) out.push('', ...notes);
  return out.join('\n');
}

const mdEscape = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown table like json-joy's benchmark reports. */
export function formatMarkdown(rows: readonly Row[], title?: string): string {
  const cols = columns(false);
  const out: string[] = [];
  if (title) out.push(`### ${mdEscape(title)}`, '');
  out.push(`| ${cols.map((c) => c.title).join(' | ')} |`);
  out.push(`| ${cols.map((c) => (c.right ? '---:' : '---')).join(' | ')} |`);
  for (const r of rows) out.push(`| ${cols.map((c) => mdEscape(c.cell(r))).join(' | ')} |`);
  const reasons = rows.flatMap((r) => dashReasons(r).map((n) => `- ${mdEscape(`${r.label}: –: ${n}`)}`));
  if (reasons.length) out.push('', ...reasons);
  return out.join('\n');
}

/** The rows as JSON (`{ schema: 1, rows }`); non-finite numbers become null. */
export function formatJson(rows: readonly Row[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    { schema: 1, ...extra, rows },
    (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
    2,
  );
}

/** The key-overhead analysis as text; with `actuals`, the real schema codecs' sizes under the estimate. */
export function formatKeyOverhead(k: KeyOverhead, actuals: readonly SchemaActual[] = []): string {
  const pct = (n: number): string => `${((100 * n) / (k.frameBytes || 1)).toFixed(1)}%`;
  const out = [
    `frame ${int(k.frameBytes)} bytes; ${int(k.maps)} maps, ${int(k.entries)} entries, ${int(k.distinctKeys)} distinct keys`,
    `keys          ${int(k.keyBytes).padStart(12)}  ${pct(k.keyBytes)}`,
    `map framing   ${int(k.mapOverheadBytes).padStart(12)}  ${pct(k.mapOverheadBytes)}`,
    `map values    ${int(k.valueBytes).padStart(12)}  ${pct(k.valueBytes)}`,
    `schema estimate (no keys, no map framing, ${k.schema.recordTagBytes} byte per record): ${int(k.schema.bytes)} bytes, ${int(k.schema.saved)} saved (${pct(k.schema.saved)})`,
  ];
  for (const a of actuals) {
    out.push(
      a.bytes === null
        ? `${a.label}: does not fit — ${a.why}`
        : `${a.label}, real: ${int(a.bytes)} bytes (${pct(a.bytes)} of the frame), schema ${int(a.schemaBytes)} bytes apart`,
    );
  }
  if (k.topKeys.length) {
    out.push('', 'heaviest keys:');
    const w = Math.max(...k.topKeys.map((u) => JSON.stringify(u.key).length));
    for (const u of k.topKeys)
      out.push(
        `  ${JSON.stringify(u.key).padEnd(w)}  ×${int(u.count).padStart(8)}  ${int(u.bytes).padStart(10)} bytes`,
      );
  }
  return out.join('\n');
}
