/**
 * What the patched sockets report, as capture events: connection ids, times and the bytes
 * of each message (read by the sink before `message` returns, so the app may reuse its
 * buffers). Shared by the `ws` patch and the global WebSocket patch.
 */
import { performance } from 'node:perf_hooks';
import type { Direction, Opcode } from '../../codecs/capture/types.js';
import type { HookSink } from './capture-sink.js';

export interface Tap {
  newId(): string;
  opened(id: string, url: string, protocol: string, extensions: string): void;
  message(id: string, direction: Direction, opcode: Opcode, data: Uint8Array): void;
  closed(id: string, code: number, reason: string, wasClean: boolean): void;
}

const timeOrigin = performance.timeOrigin;
const wallClock = (): number => timeOrigin + performance.now();

export function createTap(sink: HookSink, now: () => number = wallClock): Tap {
  let next = 1;
  const prefix = `pid${process.pid}-`;
  return {
    newId: () => `${prefix}${next++}`,
    opened(id, url, protocol, extensions) {
      sink.opened({ connectionId: id, url, protocol, extensions, extensionsRecorded: true, time: now() });
    },
    message(id, direction, opcode, data) {
      sink.frame(id, direction, opcode, now(), data);
    },
    closed(id, code, reason, wasClean) {
      sink.closed(id, code, reason, wasClean, now());
    },
  };
}

/**
 * The bytes of what was sent or received, whatever form it came in (string, Buffer,
 * ArrayBuffer, view, Buffer[]): a view of the app's own memory where there is one (the sink
 * reads it before returning), new bytes for strings and fragment lists.
 */
export function bytesOf(data: unknown): Uint8Array | null {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof Uint8Array) return data; // Buffers too: read before the sink returns
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data) && data.every((d) => ArrayBuffer.isView(d))) return Buffer.concat(data as Buffer[]);
  return null;
}
