import { describe, expect, it } from 'vitest';
import { SocketIoAttachments } from './socketio-attachments.js';

const event = { protocol: 'socket.io', message: 'BINARY_EVENT', event: 'upload', attachments: 2 } as const;

describe('Socket.IO attachments as frames arrive', () => {
  it('names the binary frames after a BINARY_EVENT its attachments, in order, in that direction only', () => {
    const a = new SocketIoAttachments();
    expect(a.observe('c sent', 1, 'text', event)).toBeNull();
    expect(a.observe('c received', 2, 'binary', null)).toBeNull();
    expect(a.observe('c sent', 3, 'binary', null)).toEqual({ eventFrame: 1, event: 'upload', num: 0, total: 2 });
    expect(a.observe('c sent', 4, 'binary', null)).toEqual({ eventFrame: 1, event: 'upload', num: 1, total: 2 });
    expect(a.observe('c sent', 5, 'binary', null)).toBeNull();
  });

  it('expects no more once a text frame comes in that direction', () => {
    const a = new SocketIoAttachments();
    a.observe('c sent', 1, 'text', event);
    a.observe('c sent', 2, 'text', null);
    expect(a.observe('c sent', 3, 'binary', null)).toBeNull();
  });
});
