/**
 * The session bench's input: ~1 KB JSON records, deterministic — a trading
 * feed's order-book updates with an occasional trade and note (keys coming and going)
 * from the server on two connections, and a subscription every tenth message from the client.
 */
import type { SessionMessage } from '../compare/session/session.js';
import { makeRng } from '../core/rng.js';

export function sessionOfRecords(count: number, seed = 7): SessionMessage[] {
  const random = makeRng(seed);
  const r = (): number => random();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const symbols = ['BTC-USD', 'ETH-USD', 'SOL-USD', 'ADA-EUR', 'DOT-USD', 'XRP-EUR'];
  const utf8 = new TextEncoder();
  const out: SessionMessage[] = [];
  for (let i = 0; i < count; i++) {
    const toServer = i % 10 === 0;
    let value: unknown;
    if (toServer)
      value = {
        type: 'subscribe',
        id: i,
        channels: symbols.filter(() => r() < 0.5).map((s) => ({ name: 'book', symbol: s, depth: 10 })),
        client: { app: 'web', version: '4.12.0', session: `s-${Math.floor(r() * 1e9)}` },
      };
    else {
      const levels = (n: number) =>
        Array.from({ length: n }, () => ({
          price: Math.round(r() * 1e7) / 100,
          size: Math.round(r() * 1e6) / 1e4,
          orders: Math.floor(r() * 20),
        }));
      const update: Record<string, unknown> = {
        type: 'book',
        seq: i,
        symbol: pick(symbols),
        ts: 1_700_000_000_000 + i * 37,
        bids: levels(10),
        asks: levels(10),
        venue: pick(['main', 'dark', 'otc']),
      };
      if (r() < 0.3)
        update.trade = {
          id: `t-${i}`,
          price: Math.round(r() * 1e7) / 100,
          size: Math.round(r() * 1e4) / 100,
          side: r() < 0.5 ? 'buy' : 'sell',
          maker: r() < 0.5,
        };
      if (r() < 0.2) update.note = 'auction phase ends at the next full minute';
      value = update;
    }
    out.push({
      connectionId: i % 3 === 0 ? 'feed-2' : 'feed-1',
      direction: toServer ? 'client-to-server' : 'server-to-client',
      opcode: 1,
      data: utf8.encode(JSON.stringify(value)),
    });
  }
  return out;
}
