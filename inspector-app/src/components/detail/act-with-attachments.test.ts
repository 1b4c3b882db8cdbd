/**
 * A Socket.IO binary packet is acted on with its attachments after it, in order, as binary
 * frames; an evicted attachment stops the act before anything goes; a refused attachment says
 * the frame went but not it.
 */
import { expect, it } from 'vitest';
import type { FrameActionRequest } from '../../state/frame-action-client.js';
import { actOutcomeText, actWithAttachments } from './act-with-attachments.js';

function env(attachments: Record<number, Uint8Array | null>, refuse = new Set<number>()) {
  const acted: FrameActionRequest[] = [];
  const worker = {
    call: (async (method: string, params: { frameId: number }) =>
      method === 'attachmentFrames'
        ? params.frameId === 1
          ? Object.keys(attachments).map(Number)
          : []
        : attachments[params.frameId]) as never,
  };
  const host = {
    kinds: ['send', 'deliver'] as const,
    client: {
      act: async (r: FrameActionRequest) => {
        acted.push(r);
        return refuse.has(r.data[0]!) ? { ok: false, error: 'the socket is closed' } : { ok: true };
      },
    },
  };
  return { worker, host, acted };
}

const packet = { frameId: 1, connectionId: 'c:1', opcode: 'text' as const };

it('sends the packet, then its attachments in order as binary frames', async () => {
  const { worker, host, acted } = env({ 2: Uint8Array.of(20), 3: Uint8Array.of(30) });
  const out = await actWithAttachments(worker, host, packet, 'send', Uint8Array.of(10));
  expect(acted.map((r) => [r.opcode, r.data[0], r.connectionId])).toEqual([
    ['text', 10, 'c:1'],
    ['binary', 20, 'c:1'],
    ['binary', 30, 'c:1'],
  ]);
  expect(actOutcomeText(out, 'sent again', 'not sent again')).toBe('sent again with its 2 attachments');
  const plain = await actWithAttachments(worker, host, { ...packet, frameId: 9 }, 'deliver', Uint8Array.of(1));
  expect(actOutcomeText(plain, 'delivered', 'not delivered')).toBe('delivered');
});

it('an evicted attachment stops the act before anything is sent', async () => {
  const { worker, host, acted } = env({ 2: Uint8Array.of(20), 3: null });
  const out = await actWithAttachments(worker, host, packet, 'send', Uint8Array.of(10));
  expect(acted).toEqual([]);
  expect(actOutcomeText(out, 'sent again', 'not sent again')).toBe(
    'not sent again: its attachment (frame 3) was evicted: its bytes are gone',
  );
});

it('a refused attachment: the packet went, the rest did not, and it says so', async () => {
  const { worker, host, acted } = env({ 2: Uint8Array.of(20), 3: Uint8Array.of(30) }, new Set([20]));
  const out = await actWithAttachments(worker, host, packet, 'send', Uint8Array.of(10));
  expect(acted).toHaveLength(2);
  expect(actOutcomeText(out, 'sent again', 'not sent again')).toBe(
    'sent again, but not attachment 1 of 2: the socket is closed',
  );
});
