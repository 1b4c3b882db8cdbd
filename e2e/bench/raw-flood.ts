/**
 * The page-cost flood's WebSocket endpoint, written against the raw socket (RFC 6455) rather
 * than the `ws` package: the page-cost figure is meant to measure the browser receiving
 * messages, and `ws` spends about 100 µs of CPU per 100-byte message it sends (a write per
 * message), which on a 2-core machine is CPU taken from the browser and the main source of
 * run-to-run noise. Here the messages are framed once, `burst` to a buffer, and written in
 * those large chunks with the socket's backpressure: the server costs next to nothing.
 *
 * Protocol: after the handshake the page sends one text frame `go <count> <size>`; the
 * server answers with `count` binary messages of `size` bytes (64 distinct payloads in
 * turn), then answers the page's close frame with its own and ends the connection.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OPCODE_TEXT = 0x1;
const OPCODE_CLOSE = 0x8;

/** Accepts the upgrade on `socket` and serves one flood. */
export function serveFlood(req: IncomingMessage, socket: Duplex, burst: number): void {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || req.headers.upgrade?.toLowerCase() !== 'websocket') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  const accept = createHash('sha1')
    .update(key + HANDSHAKE_GUID)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  socket.on('error', () => socket.destroy());
  let pending = Buffer.alloc(0);
  let flooding = false;
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const frame = readClientFrame(pending);
      if (!frame) return;
      pending = pending.subarray(frame.size);
      if (frame.opcode === OPCODE_CLOSE) {
        socket.end(Buffer.from([0x80 | OPCODE_CLOSE, 0]));
        return;
      }
      if (frame.opcode === OPCODE_TEXT && !flooding) {
        const [word, count, size] = frame.payload.toString('utf8').split(' ');
        if (word !== 'go' || !(Number(count) > 0) || !(Number(size) > 0)) {
          socket.end(Buffer.from([0x80 | OPCODE_CLOSE, 0]));
          return;
        }
        flooding = true;
        void flood(socket, Number(count), Number(size), burst);
      }
    }
  });
}

/** Writes `count` framed messages in chunks of `burst`, waiting for `drain` when the socket's buffer is full. */
async function flood(socket: Duplex, count: number, size: number, burst: number): Promise<void> {
  const pool = Array.from({ length: 64 }, (_, k) => {
    const b = Buffer.alloc(size);
    for (let i = 0; i < size; i++) b[i] = (i * 31 + k * 7) & 0xff;
    return b;
  });
  const head = frameHead(size);
  const frameBytes = head.length + size;
  // One chunk of `burst` frames; burst is a multiple of 64, so every chunk is the same bytes.
  const perChunk = Math.max(64, Math.ceil(burst / 64) * 64);
  const chunk = Buffer.alloc(perChunk * frameBytes);
  for (let i = 0; i < perChunk; i++) {
    head.copy(chunk, i * frameBytes);
    pool[i % 64]!.copy(chunk, i * frameBytes + head.length);
  }
  for (let sent = 0; sent < count && !socket.destroyed; sent += perChunk) {
    const frames = Math.min(perChunk, count - sent);
    if (!socket.write(frames === perChunk ? chunk : chunk.subarray(0, frames * frameBytes))) {
      await new Promise<void>((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
  }
}

/** A final, unmasked binary frame's head for a payload of `size` bytes. */
function frameHead(size: number): Buffer {
  if (size < 126) return Buffer.from([0x82, size]);
  if (size < 0x10000) return Buffer.from([0x82, 126, size >> 8, size & 0xff]);
  const head = Buffer.alloc(10);
  head[0] = 0x82;
  head[1] = 127;
  head.writeBigUInt64BE(BigInt(size), 2);
  return head;
}

/** The first complete (masked, as clients must send) frame of `data`, or null while incomplete. */
function readClientFrame(data: Buffer): { opcode: number; payload: Buffer; size: number } | null {
  if (data.length < 2) return null;
  const opcode = data[0]! & 0x0f;
  const masked = (data[1]! & 0x80) !== 0;
  let length = data[1]! & 0x7f;
  let at = 2;
  if (length === 126) {
    if (data.length < 4) return null;
    length = data.readUInt16BE(2);
    at = 4;
  } else if (length === 127) {
    if (data.length < 10) return null;
    length = Number(data.readBigUInt64BE(2));
    at = 10;
  }
  const maskAt = at;
  if (masked) at += 4;
  if (data.length < at + length) return null;
  const payload = Buffer.from(data.subarray(at, at + length));
  if (masked) for (let i = 0; i < length; i++) payload[i]! ^= data[maskAt + (i & 3)]!;
  return { opcode, payload, size: at + length };
}
