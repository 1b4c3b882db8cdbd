/**
 * Indentation for renderers that print one line per node (the CLI tree, the annotated hex
 * dump). Up to INDENT_LEVELS levels a line is indented by its depth; deeper lines keep
 * that indentation and name their depth as a number (`·40 `), so output stays linear in
 * the number of nodes: 100,000 nested arrays indented in full are 10^10 spaces.
 */
export const INDENT_LEVELS = 32;

export function indentFor(level: number, unit = 2): string {
  if (level <= INDENT_LEVELS) return ' '.repeat(level * unit);
  return ' '.repeat(INDENT_LEVELS * unit) + `·${level} `;
}
