/**
 * Deterministic JSON sessions for the session tests: realistic, repetitive records (a
 * trading feed and its subscriptions) plus one large message of random hex, so the
 * messages cover all three frame header sizes and a window that slides.
 */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SYMBOLS = ['BTC-USD', 'ETH-USD', 'SOL-USD', 'ADA-EUR'];

export function clientMessages(count: number, seed = 1): string[] {
  const r = prng(seed);
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      type: i % 3 ? 'subscribe' : 'ping',
      id: i + 1,
      channel: 'trades',
      symbols: SYMBOLS.filter(() => r() < 0.6),
      client: { app: 'wirescope-test', version: '1.4.2' },
    }),
  );
}

export function serverMessages(count: number, seed = 2, largeAt = 5): string[] {
  const r = prng(seed);
  const trade = (i: number) => ({
    type: 'trade',
    symbol: SYMBOLS[Math.floor(r() * SYMBOLS.length)],
    price: Math.round(40000 + r() * 5000) / 100,
    size: Math.round(r() * 1e6) / 1e6,
    side: r() < 0.5 ? 'buy' : 'sell',
    ts: 1_700_000_000_000 + i * 137,
  });
  return Array.from({ length: count }, (_, i) => {
    if (i === largeAt) {
      // ~200 KB of random hex: compresses to about half, past the 16-bit length.
      let hex = '';
      for (let k = 0; k < 200_000; k++) hex += Math.floor(r() * 16).toString(16);
      return JSON.stringify({ type: 'snapshot', blob: hex });
    }
    const n = 1 + (i % 4) * 8;
    return JSON.stringify({ type: 'batch', seq: i, trades: Array.from({ length: n }, (_, k) => trade(i * 100 + k)) });
  });
}
