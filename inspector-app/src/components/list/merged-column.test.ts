import { describe, expect, it } from 'vitest';
import { mergedColumn } from './columns';

const p = (name: string) => ({ name, message: 'm' }) as never;

describe('mergedColumn: a protocol cell that says nothing new lends its width', () => {
  it('to the format without a protocol, to the topic when the protocol is the format', () => {
    expect(mergedColumn({ format: 'crdt-patch', protocol: undefined })).toBe('format');
    expect(mergedColumn({ format: 'mqtt', protocol: p('mqtt') })).toBe('event');
    expect(mergedColumn({ format: 'stomp', protocol: p('stomp') })).toBe('event');
    // `socketio socket.io` is the same word twice.
    expect(mergedColumn({ format: 'socketio', protocol: p('socket.io') })).toBe('event');
    expect(mergedColumn({ format: 'json', protocol: p('phoenix') })).toBeUndefined();
  });
});
