/**
 * Counts the bytes each WebSocket message takes on one direction of one TCP connection: fed
 * the raw bytes as they pass (read from or written to the socket), it reads only the frame
 * heads (RFC 6455 5.2: FIN, opcode, length, mask) to know where frames end, and adds head +
 * payload of a message's frames until its last one (FIN). Control frames (ping, pong, close)
 * are counted apart. It neither builds nor parses a payload: `ws` does the framing; this is
 * a meter beside it, so the sizes are what the socket carried (compressed when the leg's
 * permessage-deflate compressed it).
 */
export interface WireMeter {
  push(bytes: Uint8Array): void;
  /** Bytes of control frames so far. */
  readonly controlBytes: () => number;
}

export function createWireMeter(onMessage: (wireBytes: number) => void): WireMeter {
  const head = new Uint8Array(14);
  let headHave = 0;
  let headNeed = 2;
  let payloadLeft = 0;
  let frameIsControl = false;
  let frameFin = false;
  let message = 0;
  let control = 0;

  function frameDone(frameBytes: number): void {
    if (frameIsControl) control += frameBytes;
    else {
      message += frameBytes;
      if (frameFin) {
        onMessage(message);
        message = 0;
      }
    }
  }

  let frameBytes = 0;
  function push(bytes: Uint8Array): void {
    let i = 0;
    while (i < bytes.length) {
      if (payloadLeft > 0) {
        const take = Math.min(payloadLeft, bytes.length - i);
        payloadLeft -= take;
        i += take;
        if (payloadLeft === 0) frameDone(frameBytes);
        continue;
      }
      head[headHave++] = bytes[i++];
      if (headHave < headNeed) continue;
      if (headHave === 2) {
        const len7 = head[1] & 0x7f;
        headNeed = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (head[1] & 0x80 ? 4 : 0);
        if (headHave < headNeed) continue;
      }
      const len7 = head[1] & 0x7f;
      let length = len7;
      if (len7 === 126) length = (head[2] << 8) | head[3];
      else if (len7 === 127) {
        length = 0;
        for (let k = 2; k < 10; k++) length = length * 256 + head[k];
      }
      frameIsControl = (head[0] & 0x08) !== 0;
      frameFin = (head[0] & 0x80) !== 0;
      frameBytes = headNeed + length;
      headHave = 0;
      headNeed = 2;
      payloadLeft = length;
      if (length === 0) frameDone(frameBytes);
    }
  }

  return { push, controlBytes: () => control };
}
