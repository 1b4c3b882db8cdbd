/**
 * The session comparison uses the negotiated Sec-WebSocket-Extensions where the capture
 * knows it: the connection state must carry it from the host's
 * connection-opened and from a file, and keep it when the connection closes.
 */
import { describe, expect, it } from 'vitest';
import { CaptureModel } from './capture-model.js';

describe('connection extensions', () => {
  it('keeps the negotiated header from connection-opened through close and error', () => {
    const model = new CaptureModel((run) => run());
    model.applyHostMessage({
      type: 'connection-opened',
      connectionId: 'a',
      url: 'wss://x/',
      protocol: '',
      extensions: 'permessage-deflate; server_no_context_takeover',
      time: 1,
    });
    expect(model.getSnapshot().connections.get('a')?.extensions).toBe('permessage-deflate; server_no_context_takeover');
    model.applyHostMessage({
      type: 'connection-closed',
      connectionId: 'a',
      code: 1000,
      reason: '',
      wasClean: true,
      time: 2,
    });
    expect(model.getSnapshot().connections.get('a')?.extensions).toBe('permessage-deflate; server_no_context_takeover');
    // A live socket that negotiated nothing: known, and empty.
    model.applyHostMessage({
      type: 'connection-opened',
      connectionId: 'b',
      url: 'wss://y/',
      protocol: '',
      extensions: '',
      time: 3,
    });
    expect(model.getSnapshot().connections.get('b')?.extensions).toBe('');
  });

  it('takes a file\u2019s recorded header; an empty one counts as not recorded', () => {
    const model = new CaptureModel((run) => run());
    model.addImportedConnection({
      connectionId: 'f1',
      url: 'wss://f/',
      protocol: '',
      extensions: 'permessage-deflate',
    });
    model.addImportedConnection({ connectionId: 'f2', url: 'wss://g/', protocol: '', extensions: '' });
    expect(model.getSnapshot().connections.get('f1')?.extensions).toBe('permessage-deflate');
    expect(model.getSnapshot().connections.get('f2')?.extensions).toBeUndefined();
  });
});
