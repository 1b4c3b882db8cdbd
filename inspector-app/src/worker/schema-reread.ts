/**
 * After a Protobuf schema is loaded (or removed), or a connection's message type changes, the
 * rows already listed are read again so their format, preview and protocol columns (and the
 * filters on them) follow the schema. Like the list's text search: the frames held when the
 * change came are re-read in short slices, each posting its new rows and how far it is; a
 * newer change supersedes the older run; frames evicted meanwhile are skipped; frames arriving
 * meanwhile, and rows still waiting to be read under a flood, are read with the new schema in
 * their turn anyway.
 */
import type { FrameSummary, FromWorker } from './api.js';
import type { WorkerHandlers } from './handlers.js';

/** Which held frames a change can alter: every binary frame, or one connection's. */
export type RereadScope = { readonly kind: 'all' } | { readonly kind: 'connection'; readonly connectionId: string };

export interface RereadOptions {
  readonly sliceMs: number;
  readonly now: () => number;
  readonly yieldTo: (next: () => void) => void;
  /** The content filter's generation the `matching` ids were computed under. */
  readonly filterGeneration: () => number;
  /** A frame whose row waits to be read (a flood): it is read with the new schema in its turn, not here. */
  readonly isWaiting?: (frameId: number) => boolean;
}

export class SchemaReread {
  private generation = 0;

  constructor(
    private readonly handlers: WorkerHandlers,
    private readonly post: (message: FromWorker) => void,
    private readonly options: RereadOptions,
  ) {}

  /** Starts re-reading the held frames in `scope`, superseding a run still going. */
  start(scope: RereadScope): void {
    const generation = ++this.generation;
    const { store } = this.handlers;
    // Only binary frames are read with a schema; the frame ids now (later ones are read at ingest).
    const ids: number[] = [];
    for (const f of store.all())
      if (
        f.opcode === 'binary' &&
        f.data.byteLength > 0 &&
        (scope.kind === 'all' || f.connectionId === scope.connectionId)
      )
        ids.push(f.frameId);
    let at = 0;
    const slice = () => {
      if (generation !== this.generation) return;
      const until = this.options.now() + this.options.sliceMs;
      const rows: FrameSummary[] = [];
      while (at < ids.length) {
        const id = ids[at++];
        const frame = store.get(id);
        // Evicted since the change: its row is gone from the list too.
        const row = frame && !this.options.isWaiting?.(id) ? this.handlers.reread(frame) : null;
        if (row) rows.push(row);
        if (this.options.now() >= until) break;
      }
      const done = at >= ids.length;
      const matching = this.handlers.filtering
        ? rows.filter((r) => this.handlers.matches(r.frameId)).map((r) => r.frameId)
        : null;
      this.post({
        type: 'reread',
        generation,
        rows,
        matching,
        filterGeneration: this.options.filterGeneration(),
        searched: at,
        total: ids.length,
        done,
      });
      if (!done) this.options.yieldTo(slice);
    };
    slice();
  }
}
