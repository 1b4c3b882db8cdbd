/**
 * `/demo/stomp`: what a STOMP client receives from a broker over WebSocket (text frames):
 * CONNECTED, then MESSAGE frames on order and price destinations with JSON bodies (now and
 * then a text/plain one), a RECEIPT now and then, and heart-beat EOLs between them.
 */
import { makeRng } from '../rng.js';
import type { DemoMessage, DemoTraffic } from '../traffic.js';

export const STOMP_CHANNEL_PATH = '/demo/stomp';

const SYMBOLS = ['ACME', 'GLOBX', 'INITECH', 'UMBRL'];

/** One STOMP frame: command, headers (escaped as STOMP 1.2 asks), blank line, body, NUL. */
export function stompFrame(command: string, headers: Record<string, string>, body = ''): string {
  const escape = (s: string) =>
    command === 'CONNECTED'
      ? s
      : s.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/:/g, '\\c');
  const lines = Object.entries({ ...headers, 'content-length': String(new TextEncoder().encode(body).length) }).map(
    ([k, v]) => `${escape(k)}:${escape(v)}`,
  );
  return `${command}\n${lines.join('\n')}\n\n${body}\0`;
}

export function createStompTraffic(options: { seed?: number; now?: () => number } = {}): DemoTraffic {
  const rng = makeRng(options.seed ?? 1);
  const now = options.now ?? Date.now;
  let count = 0;
  const produce = (): DemoMessage => {
    if (count === 0)
      return {
        opcode: 'text',
        kind: 'stomp',
        data: stompFrame('CONNECTED', { version: '1.2', 'heart-beat': '0,10000', server: 'wirescope-demo/1.0' }),
        label: 'stomp CONNECTED',
      };
    if (count % 9 === 0) return { opcode: 'text', kind: 'stomp', data: '\n', label: 'stomp heart-beat' };
    if (count % 13 === 0)
      return {
        opcode: 'text',
        kind: 'stomp',
        data: stompFrame('RECEIPT', { 'receipt-id': `r-${count}` }),
        label: 'stomp RECEIPT',
      };
    const symbol = SYMBOLS[Math.floor(rng() * SYMBOLS.length)];
    const destination = count % 2 ? `/topic/prices.${symbol}` : '/queue/orders';
    const body =
      count % 11 === 0
        ? `${symbol} halted`
        : JSON.stringify(
            count % 2
              ? { symbol, price: Math.round(rng() * 100000) / 100, at: now() }
              : { id: `o-${count}`, symbol, qty: Math.ceil(rng() * 500), side: rng() < 0.5 ? 'buy' : 'sell' },
          );
    const contentType = count % 11 === 0 ? 'text/plain' : 'application/json';
    return {
      opcode: 'text',
      kind: 'stomp',
      data: stompFrame(
        'MESSAGE',
        {
          destination,
          'message-id': `m-${count}`,
          subscription: count % 2 ? 'sub-prices' : 'sub-orders',
          'content-type': contentType,
        },
        body,
      ),
      label: `stomp MESSAGE ${destination}`,
    };
  };
  return {
    next() {
      const m = produce();
      count++;
      return m;
    },
    get count() {
      return count;
    },
  };
}
