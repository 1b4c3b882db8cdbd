/**
 * Uncaptured worker sockets, through the background and the panel: a `worker` event (a
 * document started a worker whose sockets the page hook cannot see) passes the background's
 * checks and becomes the app's `uncaptured` notice; an `opening` event's document (URL,
 * origin) reaches the app's `connection-opening`.
 */
import { describe, expect, it } from 'vitest';
import { isHostMessage } from '../../inspector-app/src/protocol/messages.js';
import { isRelayBatch } from '../background/validate.js';
import { TabBuffers } from '../background/tab-buffers.js';
import type { RelayBatch, SocketEvent } from '../shared/messages.js';
import { relayBatch } from '../shared/test/plain-capture.js';
import { PanelConverter, WORKER_NOT_CAPTURED } from './convert.js';

const doc = { documentUrl: 'http://a.test/frame.html', documentOrigin: 'http://a.test' };

const batchOf = (events: SocketEvent[]): RelayBatch =>
  relayBatch(1, events, { documentId: 'doc-a', documentUrl: doc.documentUrl, isTopFrame: false });

describe('worker and document info, background → panel', () => {
  it('passes the background and comes out as app messages', () => {
    const batch = batchOf([
      { type: 'opening', socketId: 1, url: 'ws://a.test/s', time: 1, ...doc },
      { type: 'worker', socketId: 0, kind: 'dedicated', url: 'http://a.test/w.js', time: 2, ...doc },
      { type: 'worker', socketId: 0, kind: 'shared', url: 'http://a.test/s.js', time: 3, ...doc },
    ]);
    expect(isRelayBatch(batch), 'the background accepts the batch').toBe(true);
    const panelBatch = new TabBuffers({ bufferId: 'b' }).ingest(7, batch)!;
    const out = new PanelConverter().convert(panelBatch.items);
    expect(out).toEqual([
      { type: 'connection-opening', connectionId: 'doc-a:1', url: 'ws://a.test/s', time: 1, ...doc },
      {
        type: 'uncaptured',
        kind: 'dedicated-worker',
        url: 'http://a.test/w.js',
        time: 2,
        ...doc,
        reason: WORKER_NOT_CAPTURED,
      },
      {
        type: 'uncaptured',
        kind: 'shared-worker',
        url: 'http://a.test/s.js',
        time: 3,
        ...doc,
        reason: WORKER_NOT_CAPTURED,
      },
    ]);
    expect(out.every(isHostMessage), 'the app accepts them').toBe(true);
  });

  it('the app refuses malformed uncaptured notices and document fields', () => {
    expect(isHostMessage({ type: 'uncaptured', kind: 'dedicated-worker', url: 'x', time: 1, reason: 'r' })).toBe(true);
    expect(isHostMessage({ type: 'uncaptured', kind: 'dedicated-worker', url: 5, time: 1, reason: 'r' })).toBe(false);
    expect(isHostMessage({ type: 'uncaptured', kind: 'dedicated-worker', url: 'x', time: 1 })).toBe(false);
    expect(isHostMessage({ type: 'connection-opening', connectionId: 'c', url: 'u', time: 1, documentUrl: 7 })).toBe(
      false,
    );
    expect(isHostMessage({ type: 'connection-opening', connectionId: 'c', url: 'u', time: 1 })).toBe(true);
  });
});
