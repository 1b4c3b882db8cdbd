/**
 * WebSocket framing overhead (RFC 6455 §5.2): a 2-byte header for payloads up to 125
 * bytes, 4 bytes (16-bit length) up to 65,535, 10 bytes (64-bit length) beyond; frames a
 * client sends carry a 4-byte masking key on top.
 */
export type Direction = 'client-to-server' | 'server-to-client';

export function frameHeaderSize(payloadLength: number, direction: Direction): number {
  const header = payloadLength <= 125 ? 2 : payloadLength <= 0xffff ? 4 : 10;
  return header + (direction === 'client-to-server' ? 4 : 0);
}
