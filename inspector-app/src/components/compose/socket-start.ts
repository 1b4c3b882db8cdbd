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
  /** What it was chosen from (`startBasis`): another basis now, another start. */
  readonly basis: string;
}

const held = (r: FrameSummary) => r.frameId >= 0 && !r.lost && !r.sample;

/** What a socket's start is chosen from: its last sent frame, else the last frame read in some format. */
interface StartFrames {
  readonly lastSent: FrameSummary | undefined;
  readonly lastRead: FrameSummary | undefined;
  readonly fromFrames: boolean;
}

function startFrames(rows: readonly FrameSummary[], connectionId: string): StartFrames {
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
  return { lastSent, lastRead, fromFrames };
}

const basisOf = ({ lastSent, lastRead, fromFrames }: StartFrames): string =>
  lastSent
    ? `sent ${lastSent.frameId}`
    : `${fromFrames ? 'frames' : 'none'} ${syntaxForFormat(lastRead?.format)} ${lastRead?.opcode ?? 'binary'}`;

/**
 * What the socket's start would be chosen from now, as a string: equal strings, the same
 * start. Cheap (no worker call), so an untouched editor can follow the socket's frames.
 */
export const startBasis = (rows: readonly FrameSummary[], connectionId: string): string =>
  basisOf(startFrames(rows, connectionId));

/**
 * The socket's last sent frame in its own encoding (as Edit and send shows it) when there is
 * one; otherwise a starter text in the format the socket's frames were in (hex when none was read).
 */
export async function startOnSocket(
  worker: Pick<WorkerClient, 'call'>,
  rows: readonly FrameSummary[],
  connectionId: string,
): Promise<SocketStart> {
  const frames = startFrames(rows, connectionId);
  const { lastSent, lastRead, fromFrames } = frames;
  const basis = basisOf(frames);
  if (lastSent) {
    const [source, original] = await Promise.all([
      worker.call('editSource', { frameId: lastSent.frameId }),
      worker.call('bytes', { frameId: lastSent.frameId }),
    ]);
    if (source && original)
      return { ...source, opcode: lastSent.opcode, fromFrameId: lastSent.frameId, original, fromFrames, basis };
  }
  const syntax = syntaxForFormat(lastRead?.format);
  return {
    syntax,
    text: STARTER_TEXT[syntax] ?? '',
    opcode: lastRead?.opcode ?? 'binary',
    fromFrameId: null,
    original: null,
    fromFrames,
    basis,
  };
}
