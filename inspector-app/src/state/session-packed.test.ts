/**
 * A host's packed batch (the extension panel's frames under a flood) goes to the
 * worker as it came — one post, typed arrays and the batch's buffer, ids numbered on from the
 * frames before it — not as an object per frame; lost-frame rows and loose frames keep their
 * places in the numbering.
 */
import { expect, it } from 'vitest';
import type { HostMessage } from '../protocol/messages.js';
import type { Transport } from '../protocol/transport.js';
import type { IngestFrame } from '../worker/api.js';
import type { WorkerClient } from '../worker/client.js';
import type { PackedIngest } from '../worker/packed-batches.js';
import { InspectorSession } from './session.js';

it('hands the worker a packed batch as one packed ingest, ids in order after the frames before it', () => {
  const posts: ({ kind: 'frames'; ids: number[] } | { kind: 'packed'; packed: PackedIngest })[] = [];
  const worker = {
    onSummaries: () => () => {},
    onFilterProgress: () => () => {},
    onReread: () => () => {},
    onTailRows: () => () => {},
    ingest: (frames: IngestFrame[]) => posts.push({ kind: 'frames', ids: frames.map((f) => f.frameId) }),
    ingestPacked: (packed: PackedIngest) => posts.push({ kind: 'packed', packed }),
  } as unknown as WorkerClient;
  let deliver: (m: HostMessage) => void = () => {};
  const transport: Transport = { listen: (h) => ((deliver = h), () => {}), send: () => {} };
  new InspectorSession(transport, worker).start();
  deliver({
    type: 'frames',
    frames: [{ connectionId: 'c', direction: 'received', time: 1, opcode: 'binary', data: new Uint8Array([1]) }],
  });
  const bytes = new Uint8Array([2, 3, 4, 5, 6]);
  deliver({
    type: 'frames-packed',
    packed: {
      bytes,
      ends: Float64Array.of(2, 2, 5),
      times: Float64Array.of(2, 3, 4),
      kinds: Uint8Array.of(0, 1, 2),
      connectionOf: Uint32Array.of(0, 0, 0),
      connections: ['c'],
    },
  });
  deliver({
    type: 'lost-frames',
    frames: [{ connectionId: 'c', direction: 'received', time: 5, opcode: 'binary', size: 9, reason: 'x' }],
  });
  expect(posts.map((p) => p.kind)).toEqual(['frames', 'packed', 'frames']);
  const packed = (posts[1] as { packed: PackedIngest }).packed;
  expect([...packed.frameIds]).toEqual([2, 3, 4]);
  expect(packed.bytes).toBe(bytes); // the batch's own buffer, not a copy
  expect((posts[2] as { ids: number[] }).ids).toEqual([5]);
});
