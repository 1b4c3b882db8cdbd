/**
 * The demo message stream: pure generators, no I/O, no timers. A stream starts with the
 * json-joy model snapshot, then mixes CBOR and MessagePack app messages of varying size,
 * JSON text frames, json-joy patches from two simulated clients (and now and then a fresh
 * snapshot), a large (1–3 MB) binary message every `largeEvery` messages, and now and then a
 * malformed frame. The same options give the same sequence of messages (timestamps inside
 * them come from `now`, which never feeds the Rng).
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { makeRng, type Rng } from './rng.js';
import { CrdtSession } from './crdt-session.js';
import { malformedFrame } from './malformed.js';
import { protobufTrade, socketIoEvent, socketIoUpload } from './real-traffic.js';
import { CBOR_SHAPES, JSON_SHAPES, MSGPACK_SHAPES, largeValue, type Shape, type ShapeCodec } from './shapes.js';

export type DemoOpcode = 'text' | 'binary';

/**
 * What a frame is meant to decode as; `malformed` frames must fail to decode; a Socket.IO
 * `attachment` is raw bytes announced by the binary event before it.
 */
export type DemoKind =
  | 'cbor'
  | 'msgpack'
  | 'json'
  | 'socketio'
  | 'protobuf'
  | 'attachment'
  | 'mqtt'
  | 'stomp'
  | 'crdt-model'
  | 'crdt-patch'
  | 'malformed';

export interface DemoMessage {
  readonly opcode: DemoOpcode;
  /** A string for text frames, bytes for binary frames. */
  readonly data: Uint8Array | string;
  /** Human-readable: `cbor order.created`, `crdt-patch alice: add todo`, ... */
  readonly label: string;
  readonly kind: DemoKind;
}

export interface TrafficOptions {
  /** Rng seed (default 1). */
  readonly seed?: number;
  /** Every Nth message is a large (1–3 MB) CBOR or MessagePack message; 0 = never (default 300, ~60 s at 5 msgs/s). */
  readonly largeEvery?: number;
  /** Chance that a message is a malformed frame (default 1/50). */
  readonly malformedChance?: number;
  /** Milliseconds stamped into messages (default: a virtual clock, 200 ms per message from 2026-01-01). */
  readonly now?: () => number;
}

export interface DemoTraffic {
  next(): DemoMessage;
  /** Messages produced so far. */
  readonly count: number;
}

export const DEFAULT_LARGE_EVERY = 300;
export const DEFAULT_MALFORMED_CHANCE = 1 / 50;
/** A new snapshot after this many patches, so a late look at the stream shows the grown model. */
const PATCHES_PER_SNAPSHOT = 60;
const LARGE_MIN_BYTES = 1_000_000;
const LARGE_MAX_BYTES = 3_000_000;
const VIRTUAL_EPOCH_MS = Date.UTC(2026, 0, 1);

const cbor = new CborEncoder();
const msgpack = new MsgPackEncoder();

function virtualClock(): () => number {
  let ticks = 0;
  return () => VIRTUAL_EPOCH_MS + 200 * ticks++;
}

/** The full mixed stream served on `/demo`. */
export function createTraffic(options: TrafficOptions = {}): DemoTraffic {
  const rng = makeRng(options.seed ?? 1);
  const largeEvery = options.largeEvery ?? DEFAULT_LARGE_EVERY;
  const malformedChance = options.malformedChance ?? DEFAULT_MALFORMED_CHANCE;
  const now = options.now ?? virtualClock();
  const crdt = new CrdtSession(rng);
  let count = 0;
  let patchesSinceSnapshot = 0;
  /** Frames that must follow the last one (a Socket.IO binary event's attachments). */
  const pending: DemoMessage[] = [];

  const snapshot = (label: string): DemoMessage => ({
    opcode: 'binary',
    kind: 'crdt-model',
    data: crdt.snapshot(),
    label,
  });

  const produce = (): DemoMessage => {
    const next = pending.shift();
    if (next) return next;
    if (count === 0) return snapshot('crdt-model snapshot');
    if (largeEvery > 0 && count % largeEvery === 0) return large(rng, now());
    if (rng() < malformedChance) {
      const frame = malformedFrame(rng);
      return { opcode: 'binary', kind: 'malformed', data: frame.data, label: `malformed ${frame.name}` };
    }
    const roll = rng();
    if (roll < 0.3) return encoded(rng.pick(CBOR_SHAPES), 'cbor', rng, now());
    if (roll < 0.5) return encoded(rng.pick(MSGPACK_SHAPES), 'msgpack', rng, now());
    if (roll < 0.62) return encoded(rng.pick(JSON_SHAPES), 'json', rng, now());
    if (roll < 0.66)
      return { opcode: 'text', kind: 'socketio', data: socketIoEvent(rng, now()), label: 'socket.io chat message' };
    // An upload's attachment must follow it directly: not when the next slot is a large message.
    if (roll < 0.68 && !(largeEvery > 0 && (count + 1) % largeEvery === 0)) {
      const [event, attachment] = socketIoUpload(rng);
      pending.push({
        opcode: 'binary',
        kind: 'attachment',
        data: attachment,
        label: 'socket.io attachment 0 of upload',
      });
      return { opcode: 'text', kind: 'socketio', data: event, label: 'socket.io upload (1 attachment)' };
    }
    if (roll < 0.74)
      return { opcode: 'binary', kind: 'protobuf', data: protobufTrade(rng, count), label: 'protobuf demo.Trade' };
    if (patchesSinceSnapshot >= PATCHES_PER_SNAPSHOT) {
      patchesSinceSnapshot = 0;
      return snapshot('crdt-model snapshot (merged)');
    }
    patchesSinceSnapshot++;
    const edit = crdt.nextPatch();
    return {
      opcode: 'binary',
      kind: 'crdt-patch',
      data: edit.patch,
      label: `crdt-patch ${edit.client}: ${edit.summary}`,
    };
  };

  return {
    next() {
      const message = produce();
      count++;
      return message;
    },
    get count() {
      return count;
    },
  };
}

/** The JSON-only stream served on `/demo/json`: text frames, never malformed. */
export function createJsonTraffic(options: Pick<TrafficOptions, 'seed' | 'now'> = {}): DemoTraffic {
  const rng = makeRng(options.seed ?? 1);
  const now = options.now ?? virtualClock();
  let count = 0;
  return {
    next() {
      count++;
      return encoded(rng.pick(JSON_SHAPES), 'json', rng, now());
    },
    get count() {
      return count;
    },
  };
}

function encoded(shape: Shape, codec: ShapeCodec, rng: Rng, nowMs: number): DemoMessage {
  const value = shape.build({ rng, nowMs, codec });
  const label = `${codec} ${shape.name}`;
  if (codec === 'json') return { opcode: 'text', kind: 'json', data: JSON.stringify(value), label };
  const data = codec === 'cbor' ? cbor.encode(value) : msgpack.encode(value);
  return { opcode: 'binary', kind: codec, data, label };
}

function large(rng: Rng, nowMs: number): DemoMessage {
  const codec = rng.bool() ? 'cbor' : 'msgpack';
  const target = rng.range(LARGE_MIN_BYTES, LARGE_MAX_BYTES);
  const { name, value } = largeValue({ rng, nowMs, codec }, target);
  const data = codec === 'cbor' ? cbor.encode(value) : msgpack.encode(value);
  return { opcode: 'binary', kind: codec, data, label: `${codec} ${name} (large)` };
}
