/**
 * The messages a codec left out, grouped by reason with counts — one function for every
 * view: the inspector's "Messages left out" list, the Markdown / HTML report and the CLI's
 * notes (the report named only each codec's first left-out message).
 *
 * Type-only imports: the inspector page imports this file, and session.ts brings every codec.
 */
import type { SessionRow } from './session-types.js';
import type { LeftOutGroup } from './session-types.js';
export type { LeftOutGroup } from './session-types.js';

/** Distinct reasons counted per row; messages for further reasons are counted in `left` only (`unlisted`). */
export const MAX_LEFT_REASONS = 50;

/**
 * A number the reason quotes, as a token of its own (not the 32 of "int32" or the 8 of
 * "UTF-8"'s neighbours matter: a digit after a letter is part of a word): a value ("bigint
 * 9007199254852078", "number 1.5"), an offset ("at byte 64", "byte 0x1c"), a count ("declares
 * 22 bytes") or a list index ("ops[5]").
 */
const QUOTED_NUMBER = /(?<![\w.])-?(?:0x[0-9a-f]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\w])/gi;
/** A parenthesized list of "; "-separated readings ("(crdt-patch stops at byte 5; cbor stops at byte 3; …)"). */
const READINGS = /\(([^()]*; [^()]*)\)/g;

/**
 * What a reason says with the values, numbers and offsets it quotes taken out: reasons with
 * the same key are one group (16 Avro entries "ledgerSeq: bigint 9007199254852078
 * where the schema has …", each with its own value; undecodable frames split on the byte
 * each reader stopped at). A list of readings is sorted too: it is ordered by the offsets it
 * quotes (furthest first), so its order is one of those values.
 */
export function reasonKey(reason: string): string {
  return reason
    .replace(QUOTED_NUMBER, '#')
    .replace(READINGS, (_, inner: string) => `(${inner.split('; ').sort().join('; ')})`);
}

type Group = { reason: string; count: number; first: number };

/** Adds `count` messages from `first` on to the group of `reason`'s key; the group shows its first message's full text. */
function addToGroup(groups: Map<string, Group>, reason: string, count: number, first: number): void {
  const key = reasonKey(reason);
  const g = groups.get(key);
  if (g) {
    g.count += count;
    if (first < g.first) {
      g.first = first;
      g.reason = reason;
    }
  } else if (groups.size < MAX_LEFT_REASONS) groups.set(key, { reason, count, first });
}

/**
 * Counts one left-out message under its reason (session.ts, as it goes through the session).
 * The map is keyed by `reasonKey`: reasons differing only in the values they quote share a
 * group (up to MAX_LEFT_REASONS groups).
 */
export function countLeftOut(groups: Map<string, Group>, reason: string, message: number): void {
  addToGroup(groups, reason, 1, message);
}

/** Groups that differ only in the values they quote, merged (rows grouped by exact text, or by one connection each). */
function regroup(groups: readonly LeftOutGroup[]): LeftOutGroup[] {
  const out = new Map<string, Group>();
  for (const g of groups) addToGroup(out, g.reason, g.count, g.first);
  return [...out.values()].sort((a, b) => a.first - b.first);
}

/** Several rows' groups summed per reason (a total, a direction over connections), ordered by first message. */
export function mergeLeftOut(rows: readonly SessionRow[]): LeftOutGroup[] {
  return regroup(rows.flatMap((r) => r.leftReasons ?? []));
}

/**
 * A row's left-out messages by reason, and how many are in no group (past MAX_LEFT_REASONS
 * distinct reasons). Rows made before the counts existed group their listed mismatches.
 */
export function leftOutGroups(row: SessionRow): { groups: LeftOutGroup[]; unlisted: number } {
  let groups: LeftOutGroup[];
  // Regrouped here too: rows may come from elsewhere (another build's worker, a saved session) grouped by exact text.
  if (row.leftReasons) groups = regroup(row.leftReasons);
  else {
    const byReason = new Map<string, Group>();
    for (const m of row.mismatches ?? []) countLeftOut(byReason, m.reason, m.message);
    groups = [...byReason.values()].sort((a, b) => a.first - b.first);
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
  const parts = groups.map((g) =>
    g.count === 1
      ? `message ${count(g.first)}: ${g.reason}`
      : `${count(g.count)} messages (first: ${count(g.first)}): ${g.reason}`,
  );
  if (unlisted)
    parts.push(
      `${count(unlisted)} more message${unlisted === 1 ? '' : 's'} for ${groups.length ? 'other reasons' : 'reasons not recorded'}`,
    );
  return parts.join('; ');
}
