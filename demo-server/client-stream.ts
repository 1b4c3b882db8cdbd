/**
 * Drives one WebSocket client: sends the first message at once, then `messagesPerSecond` on a
 * timer, and echoes back every frame the client sends (so a frame composed in the inspector
 * gets a visible reply). A slow client is not flooded: while more than BACKLOG_LIMIT bytes
 * wait in the socket, ticks are skipped instead of queueing more.
 */
import { WebSocket } from 'ws';
import type { DemoTraffic } from './traffic.js';

const BACKLOG_LIMIT = 8 * 1024 * 1024;
/** Node timers are coarse below ~10 ms; faster rates send several messages per tick. */
const MIN_TICK_MS = 10;

export interface ClientStream {
  stop(): void;
}

export function streamToClient(socket: WebSocket, traffic: DemoTraffic, messagesPerSecond: number): ClientStream {
  const sendNext = () => {
    const message = traffic.next();
    socket.send(message.data, { binary: message.opcode === 'binary' });
  };

  socket.on('message', (data, isBinary) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(data, { binary: isBinary });
  });

  sendNext();
  const tickMs = Math.max(MIN_TICK_MS, Math.round(1000 / messagesPerSecond));
  const perTick = (messagesPerSecond * tickMs) / 1000;
  // Fractional rates (e.g. 0.5/s) accumulate until a whole message is due.
  let due = 0;
  const timer = setInterval(() => {
    if (socket.readyState !== WebSocket.OPEN) return;
    due = Math.min(due + perTick, Math.max(1, messagesPerSecond));
    while (due >= 1 && socket.bufferedAmount < BACKLOG_LIMIT) {
      sendNext();
      due--;
    }
  }, tickMs);

  const stop = () => clearInterval(timer);
  socket.on('close', stop);
  return { stop };
}
