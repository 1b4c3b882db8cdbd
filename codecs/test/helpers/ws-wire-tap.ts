/**
 * A TCP proxy between a `ws` client and server that reads the WebSocket frames crossing
 * it (RFC 6455 §5.2) after each side's HTTP upgrade, so a test can measure what was
 * really sent: per message, the payload bytes and the frame header bytes.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface WireFrame {
  readonly fin: boolean;
  readonly rsv1: boolean;
  readonly opcode: number;
  readonly headerLength: number;
  readonly payloadLength: number;
}

export interface WireMessage {
  readonly opcode: number;
  /** Compressed (RSV1 set on the first frame). */
  readonly compressed: boolean;
  readonly payloadLength: number;
  readonly headerLength: number;
}

/** Incremental frame reader for one direction of a socket. */
class FrameReader {
  private buffer = Buffer.alloc(0);
  private upgraded = false;
  readonly frames: WireFrame[] = [];

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (!this.upgraded) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      this.buffer = this.buffer.subarray(end + 4);
      this.upgraded = true;
    }
    for (;;) {
      const b = this.buffer;
      if (b.length < 2) return;
      const masked = (b[1] & 0x80) !== 0;
      let length = b[1] & 0x7f;
      let header = 2;
      if (length === 126) {
        if (b.length < 4) return;
        length = b.readUInt16BE(2);
        header = 4;
      } else if (length === 127) {
        if (b.length < 10) return;
        length = Number(b.readBigUInt64BE(2));
        header = 10;
      }
      if (masked) header += 4;
      if (b.length < header + length) return;
      this.frames.push({
        fin: (b[0] & 0x80) !== 0,
        rsv1: (b[0] & 0x40) !== 0,
        opcode: b[0] & 0x0f,
        headerLength: header,
        payloadLength: length,
      });
      this.buffer = b.subarray(header + length);
    }
  }

  /** Data messages (text, binary; continuation frames joined); control frames left out. */
  messages(): WireMessage[] {
    const out: WireMessage[] = [];
    let open: { opcode: number; compressed: boolean; payloadLength: number; headerLength: number } | null = null;
    for (const f of this.frames) {
      if (f.opcode >= 8) continue;
      if (!open) open = { opcode: f.opcode, compressed: f.rsv1, payloadLength: 0, headerLength: 0 };
      open.payloadLength += f.payloadLength;
      open.headerLength += f.headerLength;
      if (f.fin) {
        out.push(open);
        open = null;
      }
    }
    return out;
  }
}

export interface WireTap {
  readonly port: number;
  readonly clientToServer: FrameReader;
  readonly serverToClient: FrameReader;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (port 0) and forwards one connection at a time to `targetPort`. */
export async function startWireTap(targetPort: number): Promise<WireTap> {
  const clientToServer = new FrameReader();
  const serverToClient = new FrameReader();
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.push(client, upstream);
    client.on('data', (d: Buffer) => {
      clientToServer.push(d);
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      serverToClient.push(d);
      client.write(d);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    clientToServer,
    serverToClient,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
