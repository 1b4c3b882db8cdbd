import type { Opcode } from '../../protocol/messages.js';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { STARTER_TEXT, syntaxForFormat } from '../../worker/compose-text.js';
import type { EditSyntax } from '../../worker/edit-text.js';

/** Where a new message on a socket starts: its syntax and text, and the frame it came from (the difference is shown against it). */
export interface SocketStart {
  readonly syntax: EditSyntax;
  readonly text: string;
  readonly opcode: Opcode;
  readonly fromFrameId: number | null;
  readonly original: Uint8Array | null;
  /** Some frame of the socket was listed when the start was chosen (false: the starter for a socket with no frame yet). */
  readonly fromFrames: boolean;
}

const held = (r: FrameSummary) => r.frameId >= 0 && !r.lost && !r.sample;

/** Whether the socket has a frame listed (its start then depends on it). */
export const hasFrameOn = (rows: readonly FrameSummary[], connectionId: string): boolean =>
  rows.some((r) => r.connectionId === connectionId && held(r));

/**
 * The socket's last sent frame in its own encoding (as Edit and send shows it) when there is
 * one; otherwise a starter text in the format the socket's frames were in (hex when none was read).
 */
export async function startOnSocket(
  worker: Pick<WorkerClient, 'call'>,
  rows: readonly FrameSummary[],
  connectionId: string,
): Promise<SocketStart> {
  let lastSent: FrameSummary | undefined;
  let lastRead: FrameSummary | undefined;
  let fromFrames = false;
  for (let i = rows.length - 1; i >= 0 && !lastSent; i--) {
    const r = rows[i]!;
    if (r.connectionId !== connectionId || !held(r)) continue;
    fromFrames = true;
    if (r.direction === 'sent') lastSent = r;
    if (!lastRead && r.format) lastRead = r;
  }
  if (lastSent) {
    const [source, original] = await Promise.all([
      worker.call('editSource', { frameId: lastSent.frameId }),
      worker.call('bytes', { frameId: lastSent.frameId }),
    ]);
    if (source && original)
      return { ...source, opcode: lastSent.opcode, fromFrameId: lastSent.frameId, original, fromFrames };
  }
  const syntax = syntaxForFormat(lastRead?.format);
  return {
    syntax,
    text: STARTER_TEXT[syntax] ?? '',
    opcode: lastRead?.opcode ?? 'binary',
    fromFrameId: null,
    original: null,
    fromFrames,
  };
}
