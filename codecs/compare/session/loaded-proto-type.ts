/**
 * Which message type a session's loaded-`.proto` row writes: the type most of
 * the first binary frames are read as. The host says how it reads a frame — the CLI ranks
 * every type and keeps the best that reads the frame whole (`--proto` without `--message`),
 * the inspector asks its list's reading (a connection's chosen type, or its best fit) — so
 * the row writes what the user was shown, and one rule picks the type for both.
 */

/** Binary frames looked at: the type of a session shows in its first frames, and ranking costs a walk per type. */
export const RANKED_FRAMES = 100;

export interface LikeliestType {
  readonly type: string;
  /** Frames read as `type`, of `of` looked at (0 when no frame read as any type). */
  readonly count: number;
  readonly of: number;
}

/**
 * `typesRead`: each binary frame's type in session order (null: no type reads it), read
 * lazily — only the first RANKED_FRAMES are asked for. Ties go to the type met first; with
 * no frame read, the schema's first type (`count` 0 says so).
 */
export function likeliestType(
  messageTypes: readonly string[],
  typesRead: Iterable<string | null>,
): LikeliestType | null {
  if (!messageTypes.length) return null;
  const wins = new Map<string, number>();
  let of = 0;
  for (const type of typesRead) {
    if (of === RANKED_FRAMES) break;
    of++;
    if (type !== null) wins.set(type, (wins.get(type) ?? 0) + 1);
  }
  let best: LikeliestType = { type: messageTypes[0], count: 0, of };
  for (const [type, count] of wins) if (count > best.count) best = { type, count, of };
  return best;
}
