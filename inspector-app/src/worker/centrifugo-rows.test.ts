/** A connection that negotiated centrifuge-protobuf: its rows and detail read its frames as Centrifugo Commands / Replies by name. */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Centrifuge } from 'centrifuge/build/protobuf';
import { WorkerHandlers } from './handlers.js';
import type { IngestFrame } from './api.js';

const codec = (
  new Centrifuge('ws://unused', { websocket: WebSocket }) as unknown as {
    _codec: { encodeReplies(r: unknown[]): Uint8Array };
  }
)._codec;
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe('centrifuge-protobuf in the worker', () => {
  it('the row names the push and channel; the detail says why and the tree has field names', () => {
    const h = new WorkerHandlers();
    h.setSubprotocol('c1', 'centrifuge-protobuf');
    const data = codec.encodeReplies([
      { push: { channel: 'news', pub: { data: json({ title: 'first' }), offset: 5 } } },
    ]);
    const f: IngestFrame = { frameId: 1, connectionId: 'c1', direction: 'received', time: 1, opcode: 'binary', data };
    h.store.add(f);
    expect(h.summarize(f)).toMatchObject({
      format: 'protobuf',
      verdict: 'decoded',
      protocol: { name: 'centrifugo', message: 'push pub', event: 'news' },
    });
    const detail = h.methods.decode({ frameId: 1, format: 'auto' })!;
    expect(detail.chosenBy).toBe('subprotocol centrifuge-protobuf');
    const message = h.methods.children({ frameId: 1, format: 'auto', nodeId: detail.root!.id }).nodes[0];
    const fields = h.methods.children({ frameId: 1, format: 'auto', nodeId: message.id }).nodes.map((n) => n.label);
    expect(fields).toContain('push');
  });
});
