/**
 * The frame list's content filter over the frames held when it was set: matched in short
 * slices, each posting its matches and how far it is, so other messages get in between. A
 * newer filter (another generation) stops an older run at its next slice; frames arriving
 * meanwhile are matched as they arrive (the summaries' `matching`), not here.
 */
import type { FromWorker } from './api.js';

export interface FilterSearch {
  /** The filter's generation: its progress messages carry it. */
  readonly generation: number;
  /** The frames to search, in list order. */
  readonly frameIds: readonly number[];
  readonly matches: (frameId: number) => boolean;
  /** False once a newer filter replaced this one: the run stops. */
  readonly current: () => boolean;
  readonly sliceMs: number;
  readonly now: () => number;
  /** Runs the next slice after the messages already queued. */
  readonly yieldTo: (next: () => void) => void;
  readonly post: (message: FromWorker) => void;
}

/** Runs the first slice now and the rest after the messages queued meanwhile. */
export function searchFrames(search: FilterSearch): void {
  const { generation, frameIds: ids, matches, current, sliceMs, now, yieldTo, post } = search;
  let at = 0;
  const slice = () => {
    if (!current()) return;
    const until = now() + sliceMs;
    const found: number[] = [];
    while (at < ids.length) {
      if (matches(ids[at])) found.push(ids[at]);
      at++;
      if (now() >= until) break;
    }
    const done = at >= ids.length;
    post({ type: 'filter-progress', generation, matches: found, searched: at, total: ids.length, done });
    if (!done) yieldTo(slice);
  };
  slice();
}
