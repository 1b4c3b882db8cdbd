/**
 * A navigation names the documents of the new page known so far: the panel turns them into
 * the connection ids that stay open (the new page's frames can report before its top
 * document), and the model closes only the others, saying the page was left.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { MemoryTransport } from '../../inspector-app/src/protocol/transport.js';
import { CaptureModel } from '../../inspector-app/src/state/capture-model.js';
import type { PanelItem } from '../shared/messages.js';
import { wireCapture, type PlainEvent } from '../shared/test/plain-capture.js';
import { PanelConverter } from './convert.js';

const opened = (documentId: string, socketId: number, seq = 1): PanelItem => {
  const events: PlainEvent[] = [
    { type: 'opening', socketId, url: `wss://${documentId}.test/`, time: 1 },
    { type: 'open', socketId, url: `wss://${documentId}.test/`, protocol: '', extensions: '', time: 2 },
  ];
  return { type: 'events', documentId, seq, lostBatches: 0, ...wireCapture(events) };
};

describe('a navigation reported with the new page\u2019s documents', () => {
  it('names the connections of those documents as staying', () => {
    const converter = new PanelConverter();
    const out = converter.convert([
      opened('old-top', 1),
      opened('new-frame', 1),
      opened('new-frame', 2, 2),
      { type: 'navigated', url: 'https://b.test/', time: 9, documents: ['new-top', 'new-frame'] },
    ]);
    expect(out.at(-1)).toEqual({
      type: 'navigated',
      url: 'https://b.test/',
      time: 9,
      stay: ['new-frame:1', 'new-frame:2'],
    });
  });

  it('leaves the new page\u2019s frame sockets open and closes the old page\u2019s', () => {
    const converter = new PanelConverter();
    const model = new CaptureModel((run) => run());
    const transport = new MemoryTransport();
    transport.listen((m: HostMessage) => model.applyHostMessage(m));
    const messages = converter.convert([
      opened('old-top', 1),
      opened('old-frame', 1),
      opened('new-frame', 1),
      { type: 'navigated', url: 'https://b.test/', time: 9, documents: ['new-top', 'new-frame'] },
    ]);
    for (const m of messages) transport.emit(m);
    const status = (id: string) => model.getSnapshot().connections.get(id);
    expect(status('new-frame:1')?.status).toBe('open');
    for (const id of ['old-top:1', 'old-frame:1'])
      expect(status(id)).toMatchObject({ status: 'closed', detail: 'page left' });
  });
});
