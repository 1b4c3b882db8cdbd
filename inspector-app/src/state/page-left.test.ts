/**
 * When the inspected page navigates (its top frame has a new document), every socket of the
 * documents before it is gone with them: the model shows the ones still open or opening as
 * closed ("page left"), so nothing offers to send on them. Sockets that had closed keep what
 * they said, and connections read from a file are not the page's.
 */
import { describe, expect, it } from 'vitest';
import { MemoryTransport } from '../protocol/transport.js';
import type { WorkerClient } from '../worker/client.js';
import { CaptureModel } from './capture-model.js';
import { InspectorSession } from './session.js';

function quietWorker(): WorkerClient {
  return {
    onSummaries: () => () => {},
    onFilterProgress: () => () => {},
    onReread: () => () => {},
    onTailRows: () => () => {},
    ingest: () => {},
    connection: () => {},
    clear: async () => {},
  } as unknown as WorkerClient;
}

function started() {
  const transport = new MemoryTransport();
  const session = new InspectorSession(transport, quietWorker(), {
    keepOnNavigate: true,
    model: new CaptureModel((run) => run()),
  });
  session.start();
  const open = (connectionId: string) =>
    transport.emit({
      type: 'connection-opened',
      connectionId,
      url: `wss://x.test/${connectionId}`,
      protocol: '',
      extensions: '',
      time: 1,
    });
  return { transport, session, open, status: (id: string) => session.model.getSnapshot().connections.get(id) };
}

describe('a navigation of the inspected page', () => {
  it('shows the old document\u2019s open and opening sockets closed, saying the page was left', () => {
    const { transport, open, status } = started();
    open('docA:1');
    open('docFrame:1');
    transport.emit({ type: 'connection-opening', connectionId: 'docA:2', url: 'wss://x.test/2', time: 1 });
    transport.emit({ type: 'navigated', url: 'https://x.test/again', time: 5 });
    for (const id of ['docA:1', 'docFrame:1', 'docA:2']) {
      expect(status(id)?.status).toBe('closed');
      expect(status(id)?.detail).toBe('page left');
    }
  });

  it('keeps what closed sockets said, leaves imported ones alone, and the new document\u2019s sockets open', () => {
    const { transport, session, open, status } = started();
    open('docA:1');
    transport.emit({
      type: 'connection-closed',
      connectionId: 'docA:1',
      code: 1000,
      reason: 'bye',
      wasClean: true,
      time: 2,
    });
    session.importConnection({ connectionId: 'file:1', url: 'wss://f.test/', protocol: '' });
    transport.emit({ type: 'navigated', url: 'https://x.test/again', time: 5 });
    open('docB:1');
    expect(status('docA:1')?.detail).toBe('code 1000 bye');
    expect(status('file:1')?.status).toBe('imported');
    expect(status('docB:1')?.status).toBe('open');
  });
});
