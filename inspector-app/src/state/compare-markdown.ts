/**
 * What "Copy comparison as Markdown" copies, from the Markdown the worker sends at a run's end
 * (codecs/compare/format.ts formatMarkdown: an optional `### title`, a table, then notes).
 * The worker writes the rows it finished and nothing about a cancel, so a cancelled run's
 * table read as complete; the session report already marks its own "(cancelled: partial)".
 */

/** The table's body rows: its lines after the header and the `| --- |` separator. */
export function markdownRowCount(markdown: string): number {
  const tableLines = markdown.split('\n').filter((line) => line.startsWith('|'));
  return Math.max(0, tableLines.length - 2);
}

/**
 * The Markdown to copy: '' when its table has no row (a header alone tells nothing, and the
 * Copy button is disabled on ''); a cancelled run's says how many codecs it holds, on its
 * title (`### frame #3 (cancelled: 11 of 16 codecs)`) or, without one, on a first line.
 */
export function copyableMarkdown(markdown: string, cancelled: boolean, total: number): string {
  const rows = markdownRowCount(markdown);
  if (rows === 0) return '';
  if (!cancelled) return markdown;
  const note = `(cancelled: ${rows} of ${total} codecs)`;
  const lines = markdown.split('\n');
  if (lines[0]!.startsWith('#')) return [`${lines[0]} ${note}`, ...lines.slice(1)].join('\n');
  return `${note}\n\n${markdown}`;
}
