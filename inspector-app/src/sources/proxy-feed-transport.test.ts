import { describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import { encodeLiveEvent } from '../../../codecs/capture/live-feed.js';
import type { HostMessage } from '../protocol/messages.js';
import { createProxyFeedTransport, feedUrlFor } from './proxy-feed-transport.js';

describe('createProxyFeedTransport', () => {
  it('turns the proxy feed into host messages, frames byte-exact, and says when the feed closes', async () => {
    const server = new WebSocketServer({ port: 0 });
    server.on('connection', (page) => {
      page.send(encodeLiveEvent({ type: 'connection-opening', connectionId: 'proxy-1', url: 'ws://up/', time: 1 }));
      page.send(
        encodeLiveEvent({
          type: 'connection-opened',
          connectionId: 'proxy-1',
          url: 'ws://up/',
          protocol: 'mqtt',
          extensions: 'permessage-deflate',
          time: 2,
        }),
      );
      page.send(
        encodeLiveEvent({
          type: 'frames',
          frames: [
            {
              connectionId: 'proxy-1',
              direction: 'sent',
              time: 3,
              opcode: 'binary',
              data: Uint8Array.from([0, 255, 128]),
            },
            {
              connectionId: 'proxy-1',
              direction: 'received',
              time: 4,
              opcode: 'text',
              data: new TextEncoder().encode('水'),
            },
          ],
        }),
      );
      page.send('{"type":"nonsense"}');
      page.close(1001, 'proxy stopping');
    });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const transport = createProxyFeedTransport({
      url: feedUrlFor({ protocol: 'http:', host: `127.0.0.1:${port}` }),
      WebSocketImpl: NodeWebSocket,
    });
    const seen: HostMessage[] = [];
    await new Promise<void>((resolve) =>
      transport.listen((m) => {
        seen.push(m);
        if (m.type === 'uncaptured') resolve();
      }),
    );
    expect(seen.map((m) => m.type)).toEqual([
      'hello',
      'connection-opening',
      'connection-opened',
      'frames',
      'dropped',
      'uncaptured',
    ]);
    const frames = seen.flatMap((m) => (m.type === 'frames' ? m.frames : []));
    expect(frames.map((f) => [f.direction, f.opcode, [...f.data]])).toEqual([
      ['sent', 'binary', [0, 255, 128]],
      ['received', 'text', [0xe6, 0xb0, 0xb4]],
    ]);
    expect(seen.find((m) => m.type === 'connection-opened')).toMatchObject({ protocol: 'mqtt' });
    expect(seen.at(-1)).toMatchObject({ reason: expect.stringContaining('1001: proxy stopping') });
    transport.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('uses wss for a page served over https', () => {
    expect(feedUrlFor({ protocol: 'https:', host: 'h:1' })).toBe('wss://h:1/__wirescope/feed');
  });
});
