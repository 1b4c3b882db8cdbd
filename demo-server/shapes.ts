/**
 * App-shaped demo values (chat, orders, telemetry, user lists, ledger entries, presence),
 * built for one codec at a time: CBOR frames carry what only CBOR can (bigints, tags, byte
 * strings, maps with non-string keys, undefined), MessagePack frames its timestamp extension
 * and bin, JSON frames plain text. Pure: no I/O, every random choice comes from the Rng.
 */
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { randomBytes, type Rng } from './rng.js';
import { hexOf } from '../codecs/core/hex.js';

export type ShapeCodec = 'cbor' | 'msgpack' | 'json';

export interface ShapeContext {
  readonly rng: Rng;
  /** Wall-clock milliseconds stamped into the value (never drawn from the Rng). */
  readonly nowMs: number;
  readonly codec: ShapeCodec;
}

/** A named value builder: `name` becomes the frame's label. */
export interface Shape {
  readonly name: string;
  build(ctx: ShapeContext): unknown;
}

const FIRST_NAMES = [
  'Ada',
  'Linus',
  'Grace',
  'Ken',
  'Margaret',
  'Dennis',
  'Barbara',
  'Edsger',
  'Frances',
  'Niklaus',
  'Zoë',
  'Søren',
  '美咲',
  'José',
];
const LAST_NAMES = [
  'Lovelace',
  'Torvalds',
  'Hopper',
  'Thompson',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Dijkstra',
  'Allen',
  'Wirth',
  'Müller',
  'Ångström',
];
const ROOMS = ['#general', '#random', '#releases', '#incidents', '#design'];
const PHRASES = [
  'deploy is green',
  'can someone review #482?',
  'lunch?',
  'the p99 went up after the last release',
  'LGTM 👍',
  'rolling back',
  'merged, thanks!',
  'the frame inspector shows 40% of bytes are keys',
  'pairing on the CRDT bug at 3',
  'ça marche',
  'done ✅',
];
const PRODUCTS = [
  { sku: 'KB-104', name: 'Mechanical keyboard', price: 129.9 },
  { sku: 'MS-220', name: 'Wireless mouse', price: 49.5 },
  { sku: 'MN-270', name: '27" monitor', price: 319 },
  { sku: 'CB-010', name: 'USB-C cable', price: 9.99 },
  { sku: 'HD-500', name: 'Noise-cancelling headphones', price: 249.25 },
  { sku: 'LP-013', name: 'Laptop stand', price: 39.75 },
];
const ROLES = ['admin', 'editor', 'viewer', 'billing', 'support'];
const STATUSES = ['online', 'away', 'busy', 'offline'];

function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** A point in time, the way each codec would idiomatically carry it. */
function timestamp(ctx: ShapeContext, ms: number): unknown {
  const seconds = Math.floor(ms / 1000);
  if (ctx.codec === 'cbor') return new JsonPackExtension(1, seconds); // tag 1: epoch seconds
  if (ctx.codec === 'msgpack') {
    const body = new Uint8Array(4); // timestamp 32: type -1 (0xff), big-endian seconds
    new DataView(body.buffer).setUint32(0, seconds >>> 0);
    return new JsonPackExtension(0xff, body);
  }
  return new Date(ms).toISOString();
}

/** Opaque bytes: a byte string in the binary codecs, hex text in JSON. */
function opaque(ctx: ShapeContext, count: number): unknown {
  const bytes = randomBytes(ctx.rng, count);
  return ctx.codec === 'json' ? hexOf(bytes) : bytes;
}

/** A UUID: CBOR tag 37 over 16 bytes, text elsewhere. */
function uuid(ctx: ShapeContext): unknown {
  const bytes = randomBytes(ctx.rng, 16);
  if (ctx.codec === 'cbor') return new JsonPackExtension(37, bytes);
  const h = hexOf(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A 64-bit counter beyond 2^53: a bigint in CBOR, a decimal string elsewhere (no precision loss). */
function counter64(ctx: ShapeContext, value: bigint): unknown {
  return ctx.codec === 'cbor' ? value : value.toString();
}

/** Skewed towards small: most lists are short, a few are long. */
function skewedCount(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() ** 3 * (max - min));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export const chatMessage: Shape = {
  name: 'chat.message',
  build(ctx) {
    const { rng } = ctx;
    const message: Record<string, unknown> = {
      type: 'chat.message',
      id: uuid(ctx),
      room: rng.pick(ROOMS),
      from: { id: rng.range(1000, 9999), name: personName(rng) },
      text: rng.pick(PHRASES),
      sentAt: timestamp(ctx, ctx.nowMs),
      edited: rng.bool(0.1),
    };
    if (rng.bool(0.25))
      message.attachments = [{ name: 'screenshot.png', mime: 'image/png', thumbnail: opaque(ctx, rng.range(64, 900)) }];
    return message;
  },
};

export const order: Shape = {
  name: 'order.created',
  build(ctx) {
    const { rng } = ctx;
    const items = Array.from({ length: rng.range(1, 12) }, () => {
      const product = rng.pick(PRODUCTS);
      return { sku: product.sku, name: product.name, qty: rng.range(1, 5), unitPrice: product.price };
    });
    const total = round(
      items.reduce((sum, item) => sum + item.qty * item.unitPrice, 0),
      2,
    );
    return {
      type: 'order.created',
      orderId: `ORD-${rng.range(100000, 999999)}`,
      customer: { id: uuid(ctx), name: personName(rng), vip: rng.bool(0.2) },
      items,
      currency: rng.pick(['EUR', 'USD', 'CHF']),
      total,
      discount: rng.bool(0.3) ? -round(total * 0.1, 2) : 0,
      // Ledger sequence numbers live beyond 2^53: the inspector shows a uint64.
      ledgerSeq: counter64(ctx, 9007199254740993n + BigInt(rng.int(1_000_000))),
      createdAt: timestamp(ctx, ctx.nowMs),
    };
  },
};

export const telemetryBatch: Shape = {
  name: 'telemetry.batch',
  build(ctx) {
    const { rng } = ctx;
    const count = skewedCount(rng, 20, 1500);
    let temperature = 20 + rng() * 5;
    const samples: number[][] = [];
    for (let i = 0; i < count; i++) {
      temperature += (rng() - 0.5) * 0.2;
      samples.push([
        i * 100,
        round(temperature, 3),
        round(40 + rng() * 20, 2),
        Math.fround(3.3 + (rng() - 0.5) * 0.01),
      ]);
    }
    return {
      type: 'telemetry.batch',
      device: `sensor-${rng.range(1, 64).toString().padStart(3, '0')}`,
      seq: counter64(ctx, 18446744073709551000n + BigInt(rng.int(600))),
      startedAtMs: ctx.nowMs - count * 100,
      columns: ['dtMs', 'tempC', 'humidity', 'volts'],
      samples,
      checksum: opaque(ctx, 32),
    };
  },
};

export const userList: Shape = {
  name: 'users.page',
  build(ctx) {
    const { rng } = ctx;
    const count = skewedCount(rng, 3, 2000);
    const users = Array.from({ length: count }, (_, i) => ({
      id: 10000 + i,
      name: personName(rng),
      email: `user${10000 + i}@example.com`,
      roles: [rng.pick(ROLES), ...(rng.bool(0.3) ? [rng.pick(ROLES)] : [])],
      lastSeen: timestamp(ctx, ctx.nowMs - rng.int(86_400_000)),
      score: round(rng() * 100, 2),
      avatarHash: opaque(ctx, 16),
    }));
    return { type: 'users.page', page: rng.range(1, 40), total: 80000, users };
  },
};

/** CBOR-only curiosities: a bignum tag, negative 64-bit ints, a URI tag, integer map keys, undefined, self-describe. */
export const ledgerEntry: Shape = {
  name: 'ledger.entry',
  build(ctx) {
    const { rng } = ctx;
    const byCurrency = new Map<unknown, unknown>([
      [978, rng.range(-50000, 50000)], // ISO 4217 numeric codes as keys
      [840, rng.range(-50000, 50000)],
    ]);
    const entry = {
      type: 'ledger.entry',
      account: uuid(ctx),
      balance: new JsonPackExtension(2, randomBytes(rng, 12)), // tag 2: bignum beyond 64 bits
      delta: -9223372036854775000n - BigInt(rng.int(800)), // negative int below -2^53
      rate: Math.PI * rng(),
      byCurrency,
      memo: rng.bool() ? undefined : 'quarterly settlement',
      statement: new JsonPackExtension(32, 'https://example.com/statements/2025-Q4.pdf'),
      signature: randomBytes(rng, 64),
      postedAt: timestamp(ctx, ctx.nowMs),
    };
    return new JsonPackExtension(55799, entry); // self-described CBOR (d9 d9 f7)
  },
};

export const gameState: Shape = {
  name: 'game.state',
  build(ctx) {
    const { rng } = ctx;
    const players = Array.from({ length: rng.range(2, 40) }, (_, i) => ({
      id: i + 1,
      x: round(rng() * 1000, 2),
      y: round(rng() * 1000, 2),
      hp: rng.range(0, 100),
      alive: rng.bool(0.9),
    }));
    return {
      type: 'game.state',
      tick: Math.floor(ctx.nowMs / 50),
      players,
      map: opaque(ctx, rng.range(8, 256)),
      at: timestamp(ctx, ctx.nowMs),
    };
  },
};

export const presence: Shape = {
  name: 'presence',
  build: (ctx) => ({
    type: 'presence',
    user: personName(ctx.rng),
    status: ctx.rng.pick(STATUSES),
    at: timestamp(ctx, ctx.nowMs),
  }),
};

export const heartbeat: Shape = {
  name: 'heartbeat',
  build: (ctx) => ({
    type: 'heartbeat',
    serverTime: ctx.nowMs,
    load: [round(ctx.rng() * 2, 2), round(ctx.rng() * 2, 2), round(ctx.rng() * 2, 2)],
    ok: true,
  }),
};

export const typing: Shape = {
  name: 'typing',
  build: (ctx) => ({ type: 'typing', room: ctx.rng.pick(ROOMS), user: personName(ctx.rng), typing: ctx.rng.bool(0.7) }),
};

export const notification: Shape = {
  name: 'notification',
  build: (ctx) => ({
    type: 'notification',
    level: ctx.rng.pick(['info', 'warning', 'error']),
    title: 'Build #' + ctx.rng.range(100, 999),
    body: ctx.rng.pick(PHRASES),
    meta: null,
  }),
};

export const CBOR_SHAPES: readonly Shape[] = [chatMessage, order, telemetryBatch, userList, ledgerEntry, gameState];
export const MSGPACK_SHAPES: readonly Shape[] = [chatMessage, order, telemetryBatch, userList, gameState];
export const JSON_SHAPES: readonly Shape[] = [presence, heartbeat, typing, notification, chatMessage];

/**
 * A value of about `targetBytes` once encoded: a user export (many records), a telemetry
 * archive (many floats) or a file chunk (one big byte string), picked by the Rng.
 */
export function largeValue(ctx: ShapeContext, targetBytes: number): { name: string; value: unknown } {
  const { rng } = ctx;
  switch (rng.int(3)) {
    case 0: {
      // ~105 bytes per record in CBOR / MessagePack.
      const users = Array.from({ length: Math.round(targetBytes / 105) }, (_, i) => ({
        id: i,
        name: personName(rng),
        email: `user${i}@example.com`,
        role: rng.pick(ROLES),
        score: round(rng() * 100, 2),
        avatarHash: opaque(ctx, 16),
      }));
      return { name: 'users.export', value: { type: 'users.export', exportedAt: timestamp(ctx, ctx.nowMs), users } };
    }
    case 1: {
      // A float64 is 9 bytes on the wire.
      const readings = Array.from({ length: Math.round(targetBytes / 9) }, () => rng() * 1000 + 1e-9);
      return {
        name: 'telemetry.archive',
        value: { type: 'telemetry.archive', device: 'sensor-001', periodMs: 10, readings },
      };
    }
    default:
      return {
        name: 'file.chunk',
        value: {
          type: 'file.chunk',
          file: 'dataset.parquet',
          offset: 0,
          mime: 'application/vnd.apache.parquet',
          bytes: randomBytes(rng, targetBytes),
        },
      };
  }
}
