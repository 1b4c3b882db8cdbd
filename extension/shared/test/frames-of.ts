/** Tests: the frames in host messages, in order, whether they came one by one (`frames`) or packed (`frames-packed`). */
import type { HostMessage, WireFrame } from '../../../inspector-app/src/protocol/messages.js';
import { unpackFrames } from '../../../inspector-app/src/protocol/packed-frames.js';

export const framesOf = (messages: readonly HostMessage[]): WireFrame[] =>
  messages.flatMap((m): readonly WireFrame[] =>
    m.type === 'frames' ? m.frames : m.type === 'frames-packed' ? unpackFrames(m.packed) : [],
  );
