/**
 * The messages a codec left out, grouped by reason with counts — one function for every
 * view: the inspector's "Messages left out" list, the Markdown / HTML report and the CLI's
 * notes (review D: the report named only each codec's first left-out message).
 *
 * Type-only imports: the inspector page imports this file, and session.ts brings every codec.
 */
import type { SessionRow } from './session.js';

export interface LeftOutGroup {
  readonly reason: string;
  /** Messages left out for this reason. */
  readonly count: number;
  /** The first of them (1-based position in the session). */
  readonly first: number;
}

/** Distinct reasons counted per row; messages for further reasons are counted in `left` only (`unlisted`). */
export const MAX_LEFT_REASONS = 50;

/** Counts one left-out message under its reason (session.ts, as it goes through the session). */
export function countLeftOut(groups: Map<string, { reason: string; count: number; first: number }>, reason: string, message: number): void {
  const g = groups.get(reason);
  if (g) {
    g.count++;
    if (message < g.first) g.first = message;
  } else if (groups.size < MAX_LEFT_REASONS) groups.set(reason, { reason, count: 1, first: message });
}

/** Several rows' groups summed per reason (a total, a direction over connections), ordered by first message. */
export function mergeLeftOut(rows: readonly SessionRow[]): LeftOutGroup[] {
  const groups = new Map<string, { reason: string; count: number; first: number }>();
  for (const r of rows) {
    for (const g of r.leftReasons ?? []) {
      const had = groups.get(g.reason);
      if (had) {
        had.count += g.count;
        had.first = Math.min(had.first, g.first);
      } else if (groups.size < MAX_LEFT_REASONS) groups.set(g.reason, { ...g });
    }
  }
  return [...groups.values()].sort((a, b) => a.first - b.first);
}

/**
 * A row's left-out messages by reason, and how many are in no group (past MAX_LEFT_REASONS
 * distinct reasons). Rows made before the counts existed group their listed mismatches.
 */
export function leftOutGroups(row: SessionRow): { groups: LeftOutGroup[]; unlisted: number } {
  let groups: LeftOutGroup[];
  if (row.leftReasons) groups = [...row.leftReasons].sort((a, b) => a.first - b.first);
  else {
    const byReason = new Map<string, { reason: string; count: number; first: number }>();
    for (const m of row.mismatches ?? []) countLeftOut(byReason, m.reason, m.message);
    groups = [...byReason.values()];
    if (!groups.length && row.left > 0 && row.leftReason) {
      const m = /^message (\d+): ([\s\S]*)$/.exec(row.leftReason);
      groups = m ? [{ reason: m[2], count: 1, first: Number(m[1]) }] : [];
    }
  }
  const grouped = groups.reduce((a, g) => a + g.count, 0);
  return { groups, unlisted: Math.max(0, row.left - grouped) };
}

const count = (n: number): string => n.toLocaleString('en-US');

/** "message 3: …" for a reason one message has, "51 messages (first: 2): …" for many; "; " between; then any not grouped. */
export function leftOutText(row: SessionRow): string {
  const { groups, unlisted } = leftOutGroups(row);
  const parts = groups.map((g) => (g.count === 1 ? `message ${count(g.first)}: ${g.reason}` : `${count(g.count)} messages (first: ${count(g.first)}): ${g.reason}`));
  if (unlisted) parts.push(`${count(unlisted)} more message${unlisted === 1 ? '' : 's'} for ${groups.length ? 'other reasons' : 'reasons not recorded'}`);
  return parts.join('; ');
}
