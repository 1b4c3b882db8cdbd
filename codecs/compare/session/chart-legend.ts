/**
 * What the session chart says in words beside its lines (legend, line titles, the note
 * under it), shared by the inspector's SessionChart and the HTML / Markdown report. A codec
 * that left messages out sums fewer messages than the others: its total reads cheaper than
 * it is, so every place that shows the total says how many messages it covers
 * ("Protobuf (inferred): 591,366 B" beside "As captured: 1,361,041 B" for 67 of 157 messages).
 */
import type { CumulativeSeries } from './cumulative.js';

const int = (n: number): string => n.toLocaleString('en-US');

/** True when the series sums only some of the session's messages. */
export const isPartial = (s: Pick<CumulativeSeries, 'left'>): boolean => (s.left ?? 0) > 0;

/** "67 of 157 messages" for a codec that left some out; null for one that encoded every message. */
export function coverageText(s: Pick<CumulativeSeries, 'left' | 'messages'>): string | null {
  if (!isPartial(s)) return null;
  const messages = s.messages ?? 0;
  return `${int(messages)} of ${int(messages + s.left!)} messages`;
}

/** "Protobuf (inferred): 591,366 B — 67 of 157 messages" (legend entries, line titles). */
export function legendText(s: Pick<CumulativeSeries, 'label' | 'left' | 'messages'>, last: number): string {
  const coverage = coverageText(s);
  return `${s.label}: ${int(last)} B${coverage ? ` — ${coverage}` : ''}`;
}

/**
 * The note under the chart (`shown` 'line') or the report's table ('column') when some
 * series is partial; null when every series sums every message.
 */
export function partialNote(
  series: readonly Pick<CumulativeSeries, 'label' | 'left' | 'messages'>[],
  shown: 'line' | 'column' = 'line',
): string | null {
  const partial = series.filter(isPartial);
  if (!partial.length) return null;
  // Commas and semicolons, not parentheses: labels have their own ("Avro (inferred)").
  const names = partial.map((s) => `${s.label}, ${coverageText(s)}`).join('; ');
  const one = partial.length === 1;
  const lead = shown === 'line' ? `Faded line${one ? '' : 's'} with a hollow end — ` : '';
  return `${lead}${names}: ${one ? 'this codec' : 'these codecs'} left messages out, so ${one ? `its ${shown} sums` : `their ${shown}s sum`} only the messages ${one ? 'it' : 'they'} encoded; lower is better only among codecs that encoded every message.`;
}
