/**
 * Whole-session comparison: what a sequence of WebSocket messages costs per
 * codec — the frames as captured, and each frame's value re-encoded as JSON, CBOR or
 * MessagePack — summed per connection and direction: message sizes, per-message gzip and
 * deflate, and the on-the-wire size (frame headers plus permessage-deflate with and
 * without context takeover, and with the connection's negotiated parameters when the
 * capture knows them).
 *
 * `compareSession` is an async generator like `compareValue`: frames are decoded once,
 * then each codec's rows are yielded when that codec has gone through the session;
 * progress is reported, the AbortSignal checked, and the event loop given a turn every
 * `yieldEvery` messages so a worker can receive a cancel. Pure TypeScript; the deflate
 * engine is passed in (fflate by default, Node's zlib in the CLI).
 */
import { codecByName, encodedBytes, type Codec } from '../codecs.js';
import { frameValue, GZIP_FRAMING } from '../compare.js';
import { schemaValue, type SchemaValue } from './schema-value.js';
import { isPlainJson, scanValue, type ValueFeatures } from '../features.js';
import {
  inferredAvroCodec,
  inferredProtobufCodec,
  loadedProtobufCodec,
  type SchemaCodec,
} from '../schema/schema-codecs.js';
import { BROTLI_NOT_IN_BROWSER, type BrotliCompressor } from './message-compressors.js';
import { MessageSizeCache, type MessageSizes } from './message-sizes.js';
import { STREAM_HASH_BITS } from './deflate-size.js';
import {
  CONTEXT_TAKEOVER,
  NO_CONTEXT_TAKEOVER,
  negotiatesDeflate,
  parseDeflateExtension,
  type DeflateParams,
} from './extension-header.js';
import { frameHeaderSize, type Direction } from './framing.js';
import { MAX_LISTED_MISMATCHES, sumRows } from './groups.js';
import { countLeftOut } from './left-out.js';
import { createSender, fflateEngine, senderSettings, type DeflateEngine } from './permessage-deflate.js';
import type {
  SessionMessage,
  SessionMismatch,
  WireVariant,
  WireSize,
  SessionRow,
  CodecSizes,
} from './session-types.js';
export type {
  SessionMessage,
  SessionMismatch,
  SchemaSize,
  WireVariant,
  WireSize,
  SessionRow,
  CodecSizes,
} from './session-types.js';

/**
 * 'captured' = the frames' own bytes; the others re-encode each frame's value: JSON, CBOR,
 * MessagePack, and the schema codecs — Avro and Protobuf with a schema inferred from the
 * session (schema/), plus 'protobuf-loaded' when a `.proto` text is passed in.
 */
export const SESSION_CODECS = ['captured', 'json', 'cbor', 'msgpack', 'avro', 'protobuf'] as const;

const SCHEMA_CODECS = new Set(['avro', 'protobuf', 'protobuf-loaded']);

/** At most this many mismatches are listed per row (`left` counts them all). */
export { MAX_LISTED_MISMATCHES };

export const WIRE_VARIANTS: readonly WireVariant[] = ['contextTakeover', 'noContextTakeover', 'negotiated'];

export interface SessionProgress {
  readonly done: number;
  readonly total: number;
  readonly phase: 'decode' | 'encode';
  readonly codec: string | null;
}

export interface SessionOptions {
  readonly codecs?: readonly string[];
  readonly engine?: DeflateEngine;
  /** The `Sec-WebSocket-Extensions` header each connection negotiated, when known. */
  readonly negotiated?: ReadonlyMap<string, string>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: SessionProgress) => void;
  /** Messages between event-loop turns (default 200). */
  readonly yieldEvery?: number;
  /**
   * Gives the event loop a turn (default: setTimeout 0). In a browser a chain of
   * setTimeout(0) is clamped to 4 ms after five links — idle time on every turn — so the
   * worker passes a MessageChannel turn instead (dispatcher.ts `yieldTo`).
   */
  readonly yieldTurn?: () => Promise<void>;
  /** Brotli per message (Node: brotli-node.ts); without one the rows say why not. */
  readonly brotli?: BrotliCompressor | null;
  /** Snappy per message (default true). */
  readonly snappy?: boolean;
  /** Another Avro codec (tests); default: schema-codecs.ts `inferredAvroCodec`, which runs everywhere. */
  readonly avro?: (values: readonly unknown[]) => SchemaCodec;
  /** A loaded `.proto` text: adds (or, listed in `codecs`, runs) the 'protobuf-loaded' codec. */
  readonly protoText?: string;
  /** The message of `protoText` each frame is (default: its first message). */
  readonly protoMessage?: string;
  /**
   * The 'protobuf-loaded' codec built by the host from a schema of several files (the CLI's
   * `--proto` files, loaded as `inspect --proto` loads them): adds (or, listed in `codecs`,
   * runs) that row, instead of `protoText`.
   */
  readonly protoCodec?: SchemaCodec;
  /**
   * Each codec's message sizes, in session order (data frames only; 0 for a message the
   * codec left out), when the codec is done: what the cumulative chart draws, so the chart
   * needs no second decode and re-encode of the session (cumulative.ts `chartFromSizes`).
   */
  readonly onCodecSizes?: (codec: CodecSizes) => void;
}

const nextTick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

interface Decoded {
  readonly value: unknown;
  readonly features: ValueFeatures;
  /** The value in plain JS terms (Maps as objects, tags dropped): what the schema codecs take; or why it has none (a key twice). */
  readonly schema: SchemaValue;
}

type Frame = { readonly message: SessionMessage; readonly decoded: Decoded | { readonly error: string } };

const key = (connectionId: string, direction: Direction): string => `${direction}\u0000${connectionId}`;

/** One sender's simulation for a group: several wire variants with the same settings share it. */
interface WireSimulation {
  /** The next message's payload size. */
  size(bytes: Uint8Array, sizes: MessageSizes): number | Promise<number>;
  close(): void;
}

interface WireTotals {
  readonly simulation: WireSimulation | null;
  readonly unsupported: string | null;
  payload: number;
  headers: number;
}

/**
 * A sender's simulation: without context takeover on the fflate engine, the payload comes
 * from the per-message sizes (one fresh-stream pass, shared with per-message deflate and
 * with every message of the same bytes), on an engine that sizes a fresh stream's message
 * synchronously (zlib) from that; otherwise its own stream.
 */
function simulationFor(
  engine: DeflateEngine,
  params: DeflateParams,
  direction: Direction,
): { simulation: WireSimulation | null; unsupported: string | null } {
  const { windowBits, noContextTakeover } = senderSettings(params, direction);
  if (
    engine === fflateEngine &&
    noContextTakeover &&
    windowBits === STREAM_HASH_BITS &&
    !engine.unsupported(windowBits)
  )
    return { simulation: { size: (_, sizes) => sizes.freshPayload, close() {} }, unsupported: null };
  const fresh = engine.freshPayloadSize;
  if (fresh && noContextTakeover && !engine.unsupported(windowBits))
    return { simulation: { size: (bytes) => fresh(windowBits, bytes), close() {} }, unsupported: null };
  const s = createSender(engine, params, direction);
  if (!s.sender) return { simulation: null, unsupported: s.unsupported };
  const sender = s.sender;
  return { simulation: { size: (bytes) => sender.payloadSize(bytes), close: () => sender.close() }, unsupported: null };
}

class Accumulator {
  messages = 0;
  size = 0;
  gzip = 0;
  deflate = 0;
  headers = 0;
  left = 0;
  leftReason: string | null = null;
  snappy = 0;
  brotli = 0;
  readonly mismatches: SessionMismatch[] = [];
  readonly leftByReason = new Map<string, { reason: string; count: number; first: number }>();
  readonly wire = new Map<WireVariant, WireTotals>();
  /** Variants whose sender runs with the same settings share one simulation (and its result per message). */
  readonly simulations: { readonly simulation: WireSimulation; readonly totals: WireTotals[] }[] = [];

  constructor(engine: DeflateEngine, direction: Direction, variants: ReadonlyMap<WireVariant, DeflateParams>) {
    const bySettings = new Map<string, { simulation: WireSimulation; totals: WireTotals[] }>();
    for (const [variant, params] of variants) {
      const { windowBits, noContextTakeover } = senderSettings(params, direction);
      const key = `${windowBits} ${noContextTakeover}`;
      const shared = bySettings.get(key);
      if (shared) {
        const totals: WireTotals = { simulation: shared.simulation, unsupported: null, payload: 0, headers: 0 };
        shared.totals.push(totals);
        this.wire.set(variant, totals);
        continue;
      }
      const s = simulationFor(engine, params, direction);
      const totals: WireTotals = { simulation: s.simulation, unsupported: s.unsupported, payload: 0, headers: 0 };
      this.wire.set(variant, totals);
      if (s.simulation) {
        const group = { simulation: s.simulation, totals: [totals] };
        bySettings.set(key, group);
        this.simulations.push(group);
      }
    }
  }
}

/**
 * Yields, per codec, one row per connection and direction (in the order they first
 * occur) and then the codec's total row. Stops when the signal aborts.
 */
export async function* compareSession(
  messages: readonly SessionMessage[],
  options: SessionOptions = {},
): AsyncGenerator<SessionRow, void, undefined> {
  const engine = options.engine ?? fflateEngine;
  const yieldEvery = options.yieldEvery ?? 200;
  const turn = options.yieldTurn ?? nextTick;
  const names =
    options.codecs ??
    (options.protoText || options.protoCodec ? [...SESSION_CODECS, 'protobuf-loaded'] : SESSION_CODECS);
  const data = messages.filter((m) => m.opcode === 1 || m.opcode === 2);
  const needsValues = names.some((n) => n !== 'captured');
  const total = data.length * (names.length + (needsValues ? 1 : 0));
  let done = 0;
  const tick = async (phase: SessionProgress['phase'], codec: string | null): Promise<boolean> => {
    done++;
    if (done % yieldEvery === 0) {
      options.onProgress?.({ done, total, phase, codec });
      await turn();
    }
    return !options.signal?.aborted;
  };

  const frames: Frame[] = [];
  for (const message of data) {
    if (options.signal?.aborted) return;
    if (!needsValues) frames.push({ message, decoded: { error: 'not decoded' } });
    else {
      try {
        const value = message.read
          ? message.read()
          : frameValue(message.data, { isText: message.opcode === 1, subprotocol: message.subprotocol }).value;
        const features = scanValue(value);
        frames.push({
          message,
          decoded: { value, features, schema: isPlainJson(features) ? { plain: value } : schemaValue(value) },
        });
      } catch (e) {
        frames.push({ message, decoded: { error: (e as Error).message } });
      }
      if (!(await tick('decode', null))) return;
    }
  }

  // Each codec's output per message, kept so a codec that writes exactly the bytes of one
  // before it (JSON re-encoding a session of compact JSON text frames = as captured) reuses
  // its rows instead of compressing every message again.
  const done_: { name: string; outputs: (Uint8Array | string)[]; rows: SessionRow[] }[] = [];
  const sizes = new MessageSizeCache({ snappy: options.snappy ?? true, brotli: options.brotli ?? null });
  for (const name of names) {
    // A report as each codec starts (before a schema is inferred): the bench's phases and the progress bar name the codec at work.
    options.onProgress?.({ done, total, phase: 'encode', codec: name });
    const schemaCodec = SCHEMA_CODECS.has(name) ? buildSchemaCodec(name, frames, options) : null;
    const codec = name === 'captured' || schemaCodec ? null : codecByName(name);
    if (name !== 'captured' && !codec && !schemaCodec) throw new RangeError(`unknown codec ${name}`);
    const groups = new Map<string, { connectionId: string; direction: Direction; acc: Accumulator }>();
    const outputs: (Uint8Array | string)[] = new Array(frames.length);
    let same = done_.filter(() => true);
    let added = 0;
    const account = async (i: number): Promise<void> => {
      const { message } = frames[i];
      const k = key(message.connectionId, message.direction);
      let group = groups.get(k);
      if (!group) {
        group = {
          connectionId: message.connectionId,
          direction: message.direction,
          acc: new Accumulator(engine, message.direction, variantsFor(message.connectionId, options.negotiated)),
        };
        groups.set(k, group);
      }
      const bytes = outputs[i];
      if (typeof bytes === 'string') {
        const n = message.number ?? i + 1;
        if (!group.acc.leftReason) group.acc.leftReason = `message ${n}: ${bytes}`;
        group.acc.left++;
        if (group.acc.mismatches.length < MAX_LISTED_MISMATCHES)
          group.acc.mismatches.push({ message: n, reason: bytes });
        countLeftOut(group.acc.leftByReason, bytes, n);
      } else {
        const pending = add(group.acc, bytes, message.direction, sizes.sizes(bytes));
        if (pending) await pending;
      }
    };
    for (let i = 0; i < frames.length; i++) {
      const { message, decoded } = frames[i];
      outputs[i] = schemaCodec ? encodeSchema(schemaCodec, decoded) : encodeFor(codec, message, decoded);
      if (same.length) {
        same = same.filter((d) => sameOutput(d.outputs[i], outputs[i]));
        // Diverged: account for the messages held back so far, in order.
        if (!same.length) while (added < i) await account(added++);
      }
      if (!same.length) await account(added++);
      if (!(await tick('encode', name))) return;
    }
    // The schema is spread over the messages it encoded: the ones left out do not carry it.
    let encoded = 0;
    if (schemaCodec) for (const o of outputs) if (typeof o !== 'string') encoded++;
    const schema =
      schemaCodec?.schemaText != null
        ? {
            bytes: schemaCodec.schemaBytes,
            text: schemaCodec.schemaText,
            messages: encoded,
            perMessage: encoded ? schemaCodec.schemaBytes / encoded : 0,
          }
        : null;
    const label = schemaCodec ? schemaCodec.label : labelOf(name, codec);
    let rows: SessionRow[];
    if (same.length && frames.length) rows = same[0].rows.map((r) => ({ ...r, codec: name, label, schema }));
    else {
      rows = [];
      for (const g of groups.values())
        rows.push({
          ...rowOf(name, codec, g.connectionId, g.direction, g.acc, options.negotiated, options),
          label,
          schema,
        });
    }
    done_.push({ name, outputs, rows });
    if (options.onCodecSizes) {
      const perMessage = new Int32Array(outputs.length);
      for (let i = 0; i < outputs.length; i++) {
        const o = outputs[i];
        perMessage[i] = typeof o === 'string' ? 0 : o.length;
      }
      options.onCodecSizes({ codec: name, label, sizes: perMessage });
    }
    for (const r of rows) yield r;
    yield { ...totalRow(name, codec, rows), label, schema };
  }
  options.onProgress?.({ done, total, phase: 'encode', codec: null });
}

function sameOutput(a: Uint8Array | string, b: Uint8Array | string): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function variantsFor(
  connectionId: string,
  negotiated: ReadonlyMap<string, string> | undefined,
): Map<WireVariant, DeflateParams> {
  const variants = new Map<WireVariant, DeflateParams>([
    ['contextTakeover', CONTEXT_TAKEOVER],
    ['noContextTakeover', NO_CONTEXT_TAKEOVER],
  ]);
  const header = negotiated?.get(connectionId);
  if (header) {
    const parsed = parseDeflateExtension(header);
    if (parsed.ok) variants.set('negotiated', parsed.params);
  }
  return variants;
}

function buildSchemaCodec(name: string, frames: readonly Frame[], options: SessionOptions): SchemaCodec {
  // Frames that do not decode, or have no plain value, shape no schema (they are listed as left out).
  const values = frames.map((f) =>
    'error' in f.decoded || 'unheld' in f.decoded.schema ? undefined : f.decoded.schema.plain,
  );
  if (name === 'avro') return (options.avro ?? inferredAvroCodec)(values);
  if (name === 'protobuf') return inferredProtobufCodec(values);
  if (options.protoCodec) return options.protoCodec;
  if (!options.protoText) return loadedProtobufCodec('', undefined);
  return loadedProtobufCodec(options.protoText, options.protoMessage);
}

function encodeSchema(codec: SchemaCodec, decoded: Frame['decoded']): Uint8Array | string {
  if ('error' in decoded) return decoded.error;
  if ('unheld' in decoded.schema) return decoded.schema.unheld;
  const out = codec.encode(decoded.schema.plain);
  return out instanceof Uint8Array ? out : out.mismatch;
}

/** The message's bytes in this codec, or why it has none. */
function encodeFor(
  codec: Codec | null | undefined,
  message: SessionMessage,
  decoded: Frame['decoded'],
): Uint8Array | string {
  if (!codec) return message.data;
  if ('error' in decoded) return decoded.error;
  const why = codec.represent(decoded.value, decoded.features);
  if (why) return why;
  try {
    return encodedBytes(codec.write(codec.prepare(decoded.value, decoded.features, new Map())));
  } catch (e) {
    return `the encoder threw: ${(e as Error).message}`;
  }
}

/** Adds one message's figures; a promise only when a wire simulation writes asynchronously (Node's zlib). */
function add(acc: Accumulator, bytes: Uint8Array, direction: Direction, sizes: MessageSizes): void | Promise<void> {
  acc.messages++;
  if (sizes.snappy !== null) acc.snappy += sizes.snappy;
  if (sizes.brotli !== null) acc.brotli += sizes.brotli;
  acc.size += bytes.length;
  acc.deflate += sizes.deflate;
  acc.gzip += sizes.deflate + GZIP_FRAMING;
  acc.headers += frameHeaderSize(bytes.length, direction);
  let pending: Promise<void> | null = null;
  for (const { simulation, totals } of acc.simulations) {
    const payload = simulation.size(bytes, sizes);
    const record = (n: number): void => {
      for (const t of totals) {
        t.payload += n;
        t.headers += frameHeaderSize(n, direction);
      }
    };
    if (typeof payload === 'number') record(payload);
    else {
      // Each stream keeps its own order; the streams of a group run one after another, as before.
      const previous: Promise<void> = pending ?? Promise.resolve();
      pending = previous.then(() => payload).then(record);
    }
  }
  return pending ?? undefined;
}

function rowOf(
  name: string,
  codec: Codec | null | undefined,
  connectionId: string,
  direction: Direction,
  acc: Accumulator,
  negotiated: ReadonlyMap<string, string> | undefined,
  options: SessionOptions = {},
): SessionRow {
  const wire = {} as Record<WireVariant, WireSize | null>;
  for (const variant of WIRE_VARIANTS) {
    const w = acc.wire.get(variant);
    if (!w) {
      const header = negotiated?.get(connectionId);
      // A known header without permessage-deflate: the messages went uncompressed, so "as negotiated" is the plain wire.
      if (variant === 'negotiated' && header !== undefined && !negotiatesDeflate(header)) {
        wire[variant] = { payload: acc.size, headers: acc.headers, total: acc.size + acc.headers };
        continue;
      }
      const parsed = header ? parseDeflateExtension(header) : null;
      wire[variant] =
        parsed && !parsed.ok ? { unsupported: `the negotiated header does not read: ${parsed.error}` } : null;
      continue;
    }
    w.simulation?.close();
    wire[variant] = w.unsupported
      ? { unsupported: w.unsupported }
      : { payload: w.payload, headers: w.headers, total: w.payload + w.headers };
  }
  return {
    codec: name,
    label: labelOf(name, codec),
    connectionId,
    direction,
    messages: acc.messages,
    size: acc.size,
    gzip: acc.gzip,
    deflate: acc.deflate,
    plainWire: { payload: acc.size, headers: acc.headers, total: acc.size + acc.headers },
    wire,
    left: acc.left,
    leftReason: acc.leftReason,
    snappy: (options.snappy ?? true) ? acc.snappy : null,
    brotli: options.brotli ? acc.brotli : { unsupported: BROTLI_NOT_IN_BROWSER },
    schema: null,
    mismatches: acc.mismatches,
    leftReasons: [...acc.leftByReason.values()],
  };
}

const labelOf = (name: string, codec: Codec | null | undefined): string =>
  codec ? codec.label : name === 'captured' ? 'As captured' : name;

/** The sum of a codec's rows (groups.ts `sumRows`, which the view uses too), named for the codec. */
export function totalRow(name: string, codec: Codec | null | undefined, rows: readonly SessionRow[]): SessionRow {
  // Every row from `rowOf` carries snappy, brotli and mismatches; the defaults are for a codec with no rows.
  return {
    snappy: 0,
    brotli: 0,
    mismatches: [],
    leftReasons: [],
    ...sumRows(rows),
    codec: name,
    label: labelOf(name, codec),
    schema: null,
  };
}

/** Collects every row (those before an abort). */
export async function runSessionComparison(
  messages: readonly SessionMessage[],
  options: SessionOptions = {},
): Promise<SessionRow[]> {
  const rows: SessionRow[] = [];
  for await (const row of compareSession(messages, options)) rows.push(row);
  return rows;
}
