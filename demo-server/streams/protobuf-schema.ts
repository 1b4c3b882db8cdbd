/**
 * Protobuf with a schema, streamed on `/demo/protobuf`: every frame is one
 * `market.v1.Envelope` (demo-server/protobuf/envelope.proto, which imports trade.proto),
 * encoded by protobufjs from those very files, so the stream and the schema a user loads
 * cannot drift apart. The body is a oneof (trade, quote or heartbeat); frames carry a map,
 * a Struct, an Any holding a Trade, wrappers, Timestamps and Durations: without the schema
 * the inspector shows the raw tree, with it the field names and well-known types.
 *
 * The .proto files are also served over HTTP at `/demo/protobuf/<name>.proto`.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type protobuf from 'protobufjs';
import { loadSchema, type ProtoFile } from '../../codecs/protobuf/schema/load.js';
import { makeRng, type Rng } from '../rng.js';
import type { DemoMessage, DemoTraffic } from '../traffic.js';

export const PROTOBUF_PATH = '/demo/protobuf';
/** The schema files, in the order to load them; the first holds the frames' type. */
export const PROTO_FILE_NAMES = ['envelope.proto', 'trade.proto'] as const;
export const ENVELOPE_TYPE = 'market.v1.Envelope';

const protoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../protobuf');

export function demoProtoFiles(): ProtoFile[] {
  return PROTO_FILE_NAMES.map((name) => ({ name, source: readFileSync(path.join(protoDir, name), 'utf8') }));
}

let types: { envelope: protobuf.Type; trade: protobuf.Type } | null = null;
function schemaTypes(): { envelope: protobuf.Type; trade: protobuf.Type } {
  if (types) return types;
  const loaded = loadSchema(demoProtoFiles());
  if (!loaded.ok) throw new Error(`demo-server/protobuf: ${loaded.error}`);
  const { root } = loaded.schema;
  types = { envelope: root.lookupType(ENVELOPE_TYPE), trade: root.lookupType('market.v1.Trade') };
  return types;
}

const SYMBOLS = ['ACME', 'GLOBX', 'INITECH', 'UMBRL', 'WAYNE'];
const REGIONS = ['eu-west', 'us-east', 'ap-south'];

function timestamp(ms: number): { seconds: number; nanos: number } {
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}

function trade(rng: Rng, nowMs: number): Record<string, unknown> {
  return {
    symbol: rng.pick(SYMBOLS),
    price: Math.round(rng() * 100000) / 100,
    qty: rng.range(-500, 500) || 1,
    side: rng.range(1, 2),
    venues: Array.from({ length: rng.range(1, 5) }, () => rng.range(1, 400)),
    executed_at: timestamp(nowMs - rng.range(0, 900)),
  };
}

/** One Envelope as protobufjs' `fromObject` takes it (field names as in the .proto files). */
export function envelopeObject(rng: Rng, seq: number, nowMs: number, startedMs: number): Record<string, unknown> {
  const envelope: Record<string, unknown> = {
    seq,
    sent_at: timestamp(nowMs),
    headers: { region: rng.pick(REGIONS), 'trace-id': `t-${(seq * 2654435761) % 1000003}` },
  };
  switch (seq % 3) {
    case 0:
      envelope.trade = trade(rng, nowMs);
      break;
    case 1:
      envelope.quote = {
        symbol: rng.pick(SYMBOLS),
        bids: Array.from({ length: 3 }, (_, i) => 100 - i - Math.round(rng() * 100) / 100),
        asks: Array.from({ length: 3 }, (_, i) => 101 + i + Math.round(rng() * 100) / 100),
        ...(rng.bool() ? { depth: { value: rng.range(0, 5000) } } : {}),
      };
      break;
    default:
      envelope.heartbeat = {
        uptime: { seconds: Math.floor((nowMs - startedMs) / 1000), nanos: ((nowMs - startedMs) % 1000) * 1_000_000 },
        clients: rng.range(1, 40),
      };
  }
  if (seq % 4 === 0) {
    envelope.context = {
      fields: {
        client: { stringValue: rng.pick(['web', 'ios', 'android']) },
        retries: { numberValue: rng.range(0, 3) },
        beta: { boolValue: rng.bool() },
        tags: { listValue: { values: [{ stringValue: 'demo' }, { nullValue: 0 }] } },
      },
    };
  }
  if (seq % 5 === 2) {
    const { trade: Trade } = schemaTypes();
    envelope.related = {
      type_url: 'type.googleapis.com/market.v1.Trade',
      value: Trade.encode(Trade.fromObject(trade(rng, nowMs))).finish(),
    };
  }
  if (seq % 6 === 1) envelope.note = { value: rng.pick(['replayed', 'late', 'from backup feed']) };
  return envelope;
}

export function encodeEnvelope(value: Record<string, unknown>): Uint8Array {
  const { envelope } = schemaTypes();
  return envelope.encode(envelope.fromObject(value)).finish().slice();
}

/** The `/demo/protobuf` stream: one Envelope per frame, body cycling trade → quote → heartbeat. */
export function createProtobufTraffic(options: { seed?: number; now?: () => number } = {}): DemoTraffic {
  const rng = makeRng(options.seed ?? 1);
  const now = options.now ?? (() => Date.UTC(2026, 0, 1));
  const startedMs = now();
  let count = 0;
  return {
    next(): DemoMessage {
      const seq = count++;
      const value = envelopeObject(rng, seq, now(), startedMs);
      const body = 'trade' in value ? 'trade' : 'quote' in value ? 'quote' : 'heartbeat';
      return {
        opcode: 'binary',
        kind: 'protobuf',
        data: encodeEnvelope(value),
        label: `protobuf ${ENVELOPE_TYPE} (${body})`,
      };
    },
    get count() {
      return count;
    },
  };
}

/** Serves `/demo/protobuf/<name>.proto` (true when the request was one of those). */
export function serveDemoProto(request: http.IncomingMessage, response: http.ServerResponse): boolean {
  const url = (request.url ?? '/').split(/[?#]/, 1)[0];
  const name = url.startsWith(`${PROTOBUF_PATH}/`) ? url.slice(PROTOBUF_PATH.length + 1) : '';
  if (!(PROTO_FILE_NAMES as readonly string[]).includes(name)) return false;
  response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  response.end(readFileSync(path.join(protoDir, name)));
  return true;
}
