/**
 * Placeholder rows: a frame the host lost arrives as `lost-frames` and takes its
 * place in the list, in arrival order, with its time, direction, size and why.
 */
import { describe, expect, it } from 'vitest';
import { isHostMessage, type HostMessage } from '../protocol/messages.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from '../worker/in-process.js';
import { CaptureModel } from './capture-model.js';
import { InspectorSession } from './session.js';

const frame = (time: number, byte: number) => ({
  connectionId: 'c1',
  direction: 'received' as const,
  time,
  opcode: 'binary' as const,
  data: new Uint8Array([byte]),
});

describe('lost-frames', () => {
  it('is a host message checked by shape', () => {
    const message: HostMessage = {
      type: 'lost-frames',
      frames: [{ connectionId: 'c', direction: 'sent', time: 1, opcode: 'text', size: 5, reason: 'why' }],
    };
    expect(isHostMessage(message)).toBe(true);
    expect(
      isHostMessage({
        type: 'lost-frames',
        frames: [{ connectionId: 'c', direction: 'sent', time: 1, opcode: 'text', size: -1, reason: 'why' }],
      }),
    ).toBe(false);
  });

  it('leaves placeholder rows in order between the frames around them', async () => {
    const transport = new MemoryTransport();
    const model = new CaptureModel((run) => run());
    const session = new InspectorSession(transport, inProcessWorker(), { model });
    session.start();
    transport.emit({ type: 'frames', frames: [frame(1, 0x01)] });
    transport.emit({ type: 'dropped', count: 1, reason: 'too large' });
    transport.emit({
      type: 'lost-frames',
      frames: [
        {
          connectionId: 'c1',
          direction: 'sent',
          time: 2,
          opcode: 'binary',
          size: 70 << 20,
          reason: 'dropped: too large to send',
        },
      ],
    });
    transport.emit({ type: 'frames', frames: [frame(3, 0x02)] });
    const deadline = Date.now() + 5000;
    while (model.getSnapshot().rows.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const rows = model.getSnapshot().rows;
    expect(rows.map((r) => [r.time, r.direction, r.size, r.lost ?? null])).toEqual([
      [1, 'received', 1, null],
      [2, 'sent', 70 << 20, 'dropped: too large to send'],
      [3, 'received', 1, null],
    ]);
    expect(rows[1]!.error).toBeNull();
    expect(model.getSnapshot().bytesHeld).toBe(2); // nothing stored for the placeholder
    expect(model.getSnapshot().droppedByHost).toBe(1);
    session.dispose();
  });
});
