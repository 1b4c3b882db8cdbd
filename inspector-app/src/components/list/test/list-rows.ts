import type { FrameSummary } from '../../../worker/api.js';

/**
 * The list rows of `n` received CBOR frames on connection `c` (frame i + 1 at time i, 10 + i
 * bytes, preview `{seq: i + 1}`); from frame `waitingFrom` on, waiting rows the worker has
 * not read yet (no format, no preview).
 */
export const cborRows = (n: number, waitingFrom = Infinity): FrameSummary[] =>
  Array.from({ length: n }, (_, i) => ({
    frameId: i + 1,
    connectionId: 'c',
    direction: 'received',
    time: i,
    opcode: 'binary',
    size: 10 + i,
    format: i + 1 >= waitingFrom ? null : 'cbor',
    preview: i + 1 >= waitingFrom ? '' : `{seq: ${i + 1}}`,
    error: null,
    ...(i + 1 >= waitingFrom ? { waiting: true as const } : {}),
  }));

/** The frame ids of the rows the list draws. */
export const shownFrameIds = (list: HTMLElement): number[] =>
  [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((r) => Number(r.dataset.frameId));
