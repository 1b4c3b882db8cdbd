/**
 * Frames for the UI benchmark: ~1 KB CBOR / MessagePack messages shaped like app traffic
 * (telemetry, orders, chat with nested maps and arrays), and one ~10 MB CBOR frame.
 * Deterministic (a seeded generator), so runs compare.
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
];
const T0 = Date.UTC(2026, 0, 1);

function message(r: () => number, i: number): unknown {
  const word = () => WORDS[Math.floor(r() * WORDS.length)];
  const ts = T0 + i * 100;
  switch (i % 3) {
    case 0:
      return {
        type: 'telemetry.batch',
        seq: i,
        device: { id: `dev-${Math.floor(r() * 1e6)}`, model: 'TX-200', firmware: '4.2.1', site: word() },
        readings: Array.from({ length: 20 }, (_, k) => ({
          sensor: `${word()}-${k}`,
          value: Math.round(r() * 1e4) / 100,
          unit: k % 2 ? 'C' : 'kPa',
          ts: ts + k,
          ok: r() > 0.1,
        })),
      };
    case 1:
      return {
        type: 'order.updated',
        seq: i,
        orderId: `ord-${Math.floor(r() * 1e9)}`,
        customer: {
          id: Math.floor(r() * 1e6),
          name: `${word()} ${word()}`,
          email: `${word()}@example.test`,
          tier: 'gold',
        },
        items: Array.from({ length: 9 }, () => ({
          sku: `${word().toUpperCase()}-${Math.floor(r() * 999)}`,
          qty: 1 + Math.floor(r() * 5),
          price: Math.round(r() * 1e5) / 100,
          tags: [word(), word()],
        })),
        total: Math.round(r() * 1e6) / 100,
        currency: 'EUR',
        updatedAt: ts,
      };
    default:
      return {
        type: 'chat.history',
        seq: i,
        room: `#${word()}`,
        messages: Array.from({ length: 10 }, (_, k) => ({
          id: i * 10 + k,
          user: word(),
          text: `${word()} ${word()} ${word()} ${word()} ${word()} ${word()}`,
          at: ts - k * 1000,
          reactions: { '+1': Math.floor(r() * 9) },
        })),
      };
  }
}

export interface FramePool {
  readonly frames: readonly Uint8Array[];
  readonly meanBytes: number;
  readonly cbor: number;
  readonly msgpack: number;
}

/** `count` distinct messages, alternating CBOR and MessagePack. */
export function framePool(count = 512, seed = 7): FramePool {
  const r = rng(seed);
  const cbor = new CborEncoder();
  const msgpack = new MsgPackEncoder();
  const frames: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const value = message(r, i);
    frames.push((i % 2 ? msgpack.encode(value) : cbor.encode(value)).slice());
  }
  const meanBytes = frames.reduce((s, f) => s + f.length, 0) / frames.length;
  return { frames, meanBytes, cbor: Math.ceil(count / 2), msgpack: Math.floor(count / 2) };
}

/** A CBOR array of small maps, about `targetBytes` long (100k maps for 10 MB). */
export function bigCborFrame(targetBytes = 10 * 1024 * 1024, seed = 3): Uint8Array {
  const r = rng(seed);
  const item = (i: number) => ({
    id: i,
    name: `${WORDS[i % WORDS.length]}-${i}`,
    score: Math.round(r() * 1e4) / 100,
    active: r() > 0.5,
    tags: [WORDS[(i * 7) % WORDS.length]],
    at: T0 + i,
  });
  const sample = new CborEncoder().encode(Array.from({ length: 100 }, (_, i) => item(50_000 + i))).length / 100;
  const n = Math.round(targetBytes / sample);
  return new CborEncoder().encode(Array.from({ length: n }, (_, i) => item(i))).slice();
}
