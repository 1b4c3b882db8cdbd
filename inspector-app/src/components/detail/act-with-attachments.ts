import type { FrameActionKind, Opcode } from '../../protocol/messages.js';
import type { WorkerClient } from '../../worker/client.js';
import type { PageActionsHost } from './page-actions-host.js';

/**
 * Sends (or delivers) a frame's bytes — or an edit of them — then, for a Socket.IO binary
 * packet, its attachment frames in order, as the page's client did: the other side's
 * socket.io waits for a packet's attachments before it reads it. Every attachment's bytes are
 * fetched before anything goes, so an evicted one stops the whole act, not half of it.
 */
export interface ActOutcome {
  readonly ok: boolean;
  readonly error?: string;
  /** Whether the frame itself went (an attachment after it may still have failed). */
  readonly frameActed: boolean;
  /** Attachments acted on after the frame. */
  readonly attachments: number;
}

export async function actWithAttachments(
  worker: Pick<WorkerClient, 'call'>,
  host: PageActionsHost,
  frame: { readonly frameId: number; readonly connectionId: string; readonly opcode: Opcode },
  action: FrameActionKind,
  data: Uint8Array,
): Promise<ActOutcome> {
  const ids = await worker.call('attachmentFrames', { frameId: frame.frameId });
  const attachments: Uint8Array[] = [];
  for (const id of ids) {
    const bytes = await worker.call('bytes', { frameId: id });
    if (!bytes)
      return {
        ok: false,
        error: `its attachment (frame ${id}) was evicted: its bytes are gone`,
        frameActed: false,
        attachments: 0,
      };
    attachments.push(bytes);
  }
  const first = await host.client.act({ action, connectionId: frame.connectionId, opcode: frame.opcode, data });
  if (!first.ok) return { ok: false, error: first.error, frameActed: false, attachments: 0 };
  for (const [i, bytes] of attachments.entries()) {
    const r = await host.client.act({ action, connectionId: frame.connectionId, opcode: 'binary', data: bytes });
    if (!r.ok)
      return {
        ok: false,
        error: `attachment ${i + 1} of ${attachments.length}: ${r.error ?? ''}`,
        frameActed: true,
        attachments: i,
      };
  }
  return { ok: true, frameActed: true, attachments: attachments.length };
}

/** What happened, in words: `sent again`, `sent again with its 2 attachments`, `sent again, but not attachment 2 of 2: …`, `not sent again: …`. */
export function actOutcomeText(outcome: ActOutcome, done: string, notDone: string): string {
  const n = outcome.attachments;
  if (outcome.ok) return n ? `${done} with its ${n} attachment${n === 1 ? '' : 's'}` : done;
  return outcome.frameActed ? `${done}, but not ${outcome.error ?? ''}` : `${notDone}: ${outcome.error ?? ''}`;
}
