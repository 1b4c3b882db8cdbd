/**
 * A capture's session messages read as the inspector reads them: every
 * frame in capture order through read-in-order.ts — the same compressed-stream state and
 * detection evidence the worker builds at ingest — then each message's value read with the
 * evidence of the whole capture, as the inspector's session comparison reads its held
 * frames (`listReading`, after every frame was ingested). The CLI's `compare --session`
 * passes its messages through this before comparing.
 */
import type { SessionMessage } from '../compare/session/session.js';
import type { InflatedMessage, OrderedFrame } from './compressed-streams.js';
import { decodeWithEvidence, newReadState, readInOrder, valueOf } from './read-in-order.js';

const orderedFrame = (m: SessionMessage): OrderedFrame => ({
  connectionId: m.connectionId,
  direction: m.direction,
  opcode: m.opcode === 1 ? 'text' : m.opcode === 2 ? 'binary' : 'control',
  data: m.data,
});

/** The messages with `read` set: what each one's value is, read as the inspector's list reads it. */
export function readMessagesInOrder(messages: readonly SessionMessage[]): SessionMessage[] {
  const state = newReadState();
  for (const m of messages) if (m.subprotocol) state.formats.setSubprotocol(m.connectionId, m.subprotocol);
  const frames = messages.map(orderedFrame);
  const inflated: (InflatedMessage | undefined)[] = [];
  // The ingest pass: streams fed and evidence recorded in arrival order (handlers.ts `summarize`).
  frames.forEach((frame, i) => {
    if (frame.opcode === 'control') return;
    const read = readInOrder(frame, state, 1);
    if (read.inflated) inflated[i] = read.inflated;
    if (read.decoded.verdict === 'decoded')
      state.formats.record(frame.connectionId, read.decoded.format, frame.data.byteLength);
  });
  // Read when compared, with the whole capture's evidence (as `listReading` reads a held frame).
  return messages.map((m, i) =>
    frames[i].opcode === 'control'
      ? m
      : { ...m, read: () => valueOf(decodeWithEvidence(frames[i], state, inflated[i], 1)) },
  );
}
