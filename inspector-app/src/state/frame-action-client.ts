/**
 * Asks the host to act on the page with a frame's bytes (Send again, Edit and send, Deliver
 * to page: hosts with `frameActions`) and waits for its `frame-action-result`. An answer that
 * does not come within `timeoutMs` is reported as such: a button never waits forever.
 */
import type { AppMessage, FrameActionKind, Opcode } from '../protocol/messages.js';
import type { Transport } from '../protocol/transport.js';

export interface FrameActionOutcome {
  readonly ok: boolean;
  /** Why nothing (or not all) was done. */
  readonly error?: string;
}

export interface FrameActionRequest {
  readonly action: FrameActionKind;
  readonly connectionId: string;
  readonly opcode: Opcode;
  readonly data: Uint8Array;
}

/** A hold action as the app asks it (the `hold-action` message without its type and request id). */
export type HoldActionRequest = Omit<Extract<AppMessage, { type: 'hold-action' }>, 'type' | 'requestId'>;

export class FrameActionClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (outcome: FrameActionOutcome) => void>();
  private readonly unlisten: () => void;

  constructor(
    private readonly transport: Transport,
    private readonly timers: {
      setTimeout(fn: () => void, ms: number): unknown;
      clearTimeout(handle: unknown): void;
    } = {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    },
    private readonly timeoutMs = 10_000,
  ) {
    this.unlisten = transport.listen((m) => {
      if (m.type !== 'frame-action-result') return;
      this.waiting.get(m.requestId)?.(m.error === undefined ? { ok: m.ok } : { ok: m.ok, error: m.error });
    });
  }

  act(request: FrameActionRequest): Promise<FrameActionOutcome> {
    return this.ask((requestId) => ({ type: 'frame-action', requestId, ...request }));
  }

  /** Forward / Edit and forward / Drop the first held frame (`seq`) of a connection and direction, or Forward all. */
  hold(request: HoldActionRequest): Promise<FrameActionOutcome> {
    return this.ask((requestId) => ({ type: 'hold-action', requestId, ...request }));
  }

  private ask(message: (requestId: number) => AppMessage): Promise<FrameActionOutcome> {
    const requestId = this.nextId++;
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(
        () => finish({ ok: false, error: 'no answer from the extension' }),
        this.timeoutMs,
      );
      const finish = (outcome: FrameActionOutcome): void => {
        if (!this.waiting.delete(requestId)) return;
        this.timers.clearTimeout(timer);
        resolve(outcome);
      };
      this.waiting.set(requestId, finish);
      this.transport.send(message(requestId));
    });
  }

  dispose(): void {
    this.unlisten();
    for (const finish of [...this.waiting.values()]) finish({ ok: false, error: 'the panel closed' });
  }
}
