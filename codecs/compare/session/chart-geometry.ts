/**
 * The cumulative-bytes chart as geometry: one polyline per codec, axis ticks and their
 * labels, in a fixed viewBox. Both the inspector (React SVG) and the HTML report (an SVG
 * string) draw from this, so they show the same chart. Pure numbers and strings.
 */
import type { SessionChartData } from './cumulative.js';
import { coverageText, legendText, partialNote } from './chart-legend.js';

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 280;
export const CHART_MARGIN = { left: 64, right: 16, top: 12, bottom: 36 } as const;

/**
 * Okabe–Ito hues (apart for the common colour-vision deficiencies), the light ones
 * replaced by darker ones, so every line has ≥ 3:1 contrast (WCAG 1.4.11) on both the
 * light (#ffffff) and the dark (#202124) background.
 */
export const SERIES_COLOURS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#8C6D1F',
  '#6A5ACD',
  '#7A7A00',
  '#808080',
] as const;
/** Dashes tell the lines apart without colour. */
export const SERIES_DASHES = ['', '6 3', '2 3', '8 3 2 3', '4 4', '1 2', '10 4', '3 6'] as const;
/**
 * A partial line (a codec that left messages out) is faded and ends in a hollow circle:
 * dashes already tell the lines apart, so the mark is another channel (chart-legend.ts says why).
 */
export const PARTIAL_OPACITY = 0.5;
export const PARTIAL_END_RADIUS = 4;

export interface ChartLine {
  readonly codec: string;
  readonly label: string;
  readonly colour: string;
  readonly dash: string;
  /** SVG `points`: "x,y x,y …". */
  readonly points: string;
  readonly last: number;
  /** The codec left messages out: drawn faded with a hollow circle at `end`. */
  readonly partial: boolean;
  /** Where the line ends (the hollow circle of a partial line). */
  readonly end: { readonly x: number; readonly y: number };
  /** "Label: 1,234 B" and, for a partial line, " — 67 of 157 messages" (legend, title). */
  readonly legend: string;
}

export interface ChartTick {
  readonly pos: number;
  readonly text: string;
}

export interface ChartGeometry {
  readonly width: number;
  readonly height: number;
  readonly plot: { readonly x0: number; readonly x1: number; readonly y0: number; readonly y1: number };
  readonly lines: readonly ChartLine[];
  readonly xTicks: readonly ChartTick[];
  readonly yTicks: readonly ChartTick[];
  /** One sentence for screen readers: what ends where. */
  readonly summary: string;
  /** Why some lines are faded (chart-legend.ts partialNote); null when none is. */
  readonly note: string | null;
}

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** 1,234 → "1.2 KiB": the UI's units (1 KiB = 1,024 bytes, as in the list and the tables), short for an axis. */
export function shortBytes(n: number): string {
  if (n >= GB) return `${(n / GB).toFixed(n >= 10 * GB ? 0 : 1)} GiB`;
  if (n >= MB) return `${(n / MB).toFixed(n >= 10 * MB ? 0 : 1)} MiB`;
  if (n >= KB) return `${(n / KB).toFixed(n >= 10 * KB ? 0 : 1)} KiB`;
  return `${Math.round(n)} B`;
}

/** The unit an axis up to `max` bytes counts in, so its ticks are round in the unit shown. */
function byteUnit(max: number): number {
  return max >= GB ? GB : max >= MB ? MB : max >= KB ? KB : 1;
}

/** A round step (1, 2, 5 × 10^k) giving about `count` ticks up to `max`. */
function niceStep(max: number, count: number): number {
  const raw = max / Math.max(1, count);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export function chartGeometry(data: SessionChartData): ChartGeometry {
  const x0 = CHART_MARGIN.left;
  const x1 = CHART_WIDTH - CHART_MARGIN.right;
  const y0 = CHART_HEIGHT - CHART_MARGIN.bottom;
  const y1 = CHART_MARGIN.top;
  const messages = data.at.length ? data.at[data.at.length - 1] : 0;
  let maxBytes = 0;
  for (const s of data.series) for (const b of s.bytes) maxBytes = Math.max(maxBytes, b);
  const unit = byteUnit(maxBytes);
  const yStep = maxBytes > 0 ? Math.max(1, niceStep(maxBytes / unit, 4) * unit) : 1;
  const yMax = maxBytes > 0 ? Math.ceil(maxBytes / yStep) * yStep : 1;
  const xStep = messages > 0 ? niceStep(messages, 5) : 1;
  const x = (count: number): number => x0 + (messages > 0 ? (count / messages) * (x1 - x0) : 0);
  const y = (bytes: number): number => y0 - (bytes / yMax) * (y0 - y1);
  const r = (v: number): string => (Math.round(v * 10) / 10).toString();
  const lines = data.series.map((s, i) => {
    const last = s.bytes.length ? s.bytes[s.bytes.length - 1] : 0;
    const coverage = coverageText(s);
    return {
      codec: s.codec,
      label: s.label,
      colour: SERIES_COLOURS[i % SERIES_COLOURS.length],
      dash: SERIES_DASHES[i % SERIES_DASHES.length],
      points: [`${r(x(0))},${r(y(0))}`, ...s.bytes.map((b, k) => `${r(x(data.at[k]))},${r(y(b))}`)].join(' '),
      last,
      partial: coverage !== null,
      end: { x: Number(r(x(s.bytes.length ? data.at[s.bytes.length - 1] : 0))), y: Number(r(y(last))) },
      legend: legendText(s, last),
    };
  });
  const xTicks: ChartTick[] = [];
  for (let v = 0; v <= messages; v += xStep) xTicks.push({ pos: x(v), text: v.toLocaleString('en-US') });
  const yTicks: ChartTick[] = [];
  for (let v = 0; v <= yMax; v += yStep) yTicks.push({ pos: y(v), text: shortBytes(v) });
  const summary = lines.length
    ? `Cumulative message bytes over ${messages.toLocaleString('en-US')} messages: ${lines.map((l, i) => `${l.label} ends at ${shortBytes(l.last)}${l.partial ? `, ${coverageText(data.series[i])} only` : ''}`).join('; ')}.`
    : 'No codec to chart.';
  return {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    plot: { x0, x1, y0, y1 },
    lines,
    xTicks,
    yTicks,
    summary,
    note: partialNote(data.series),
  };
}
