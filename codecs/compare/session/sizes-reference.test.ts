/**
 * The session's figures equal a plain computation on generated sessions: each message
 * encoded, then sized with fflate itself — `deflateSync` per message, the fflate engine's
 * real permessage-deflate bytes per connection and direction (with and without context
 * takeover, and as negotiated), snappyjs per message. compareSession sizes without writing
 * (deflate-size.ts), shares one pass between per-message deflate and the
 * no-context-takeover payload, and sizes a byte string it has seen once; none of that may
 * move a figure.
 */
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import snappy from 'snappyjs';
import { codecByName, encodedBytes } from '../codecs.js';
import { scanValue } from '../features.js';
import { inferredProtobufCodec } from '../schema/schema-codecs.js';
import { GZIP_FRAMING } from '../compare.js';
import { runSessionComparison, type SessionMessage, type SessionRow } from './session.js';
import {
  CONTEXT_TAKEOVER,
  NO_CONTEXT_TAKEOVER,
  parseDeflateExtension,
  type DeflateParams,
} from './extension-header.js';
import { fflateEngine, createSender } from './permessage-deflate.js';
import { frameHeaderSize, type Direction } from './framing.js';
import { sessionOfRecords } from '../../bench/session-data.js';
import { makeRng } from '../../core/rng.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** The bench's records on two connections, with repeats (a session resends frames) and one message past 8 KB. */
function generatedSession(): SessionMessage[] {
  const random = makeRng(5);
  const base = sessionOfRecords(400, 11);
  const out: SessionMessage[] = [];
  for (const m of base) {
    out.push(m);
    if (random.bool(0.15)) out.push(out[random.int(out.length)]);
  }
  const big = {
    type: 'snapshot',
    rows: Array.from({ length: 400 }, (_, i) => ({
      i,
      price: Math.round(random() * 1e6) / 100,
      venue: random.pick(['main', 'dark']),
    })),
  };
  out.splice(200, 0, {
    connectionId: 'feed-1',
    direction: 'server-to-client',
    opcode: 1,
    data: utf8.encode(JSON.stringify(big)),
  });
  return out;
}

const NEGOTIATED = new Map([['feed-2', 'permessage-deflate; client_no_context_takeover']]);

/** Each message's bytes in a codec, computed here, not by the session. */
function bytesIn(codec: string, messages: readonly SessionMessage[]): Uint8Array[] {
  const values = messages.map((m) => JSON.parse(text.decode(m.data)) as unknown);
  if (codec === 'captured') return messages.map((m) => m.data);
  if (codec === 'protobuf') {
    const schema = inferredProtobufCodec(values);
    return values.map((v) => schema.encode(v) as Uint8Array);
  }
  const c = codecByName(codec)!;
  return values.map((v) => {
    const features = scanValue(v);
    return encodedBytes(c.write(c.prepare(v, features, new Map())));
  });
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

async function wireOf(
  bytes: readonly Uint8Array[],
  params: DeflateParams,
  direction: Direction,
): Promise<{ payload: number; headers: number; total: number }> {
  const { sender } = createSender(fflateEngine, params, direction);
  const sizes: number[] = [];
  for (const b of bytes) sizes.push((await sender!.payload(b)).length);
  const payload = sum(sizes);
  const headers = sum(sizes.map((n) => frameHeaderSize(n, direction)));
  return { payload, headers, total: payload + headers };
}

describe('session figures equal fflate run message by message', () => {
  it('size, deflate, gzip, snappy and every wire variant, per connection and direction, for each codec', async () => {
    const messages = generatedSession();
    const codecs = ['captured', 'json', 'cbor', 'msgpack', 'protobuf'];
    const rows = await runSessionComparison(messages, { codecs, negotiated: NEGOTIATED });
    const all: Record<string, Uint8Array[]> = Object.fromEntries(codecs.map((c) => [c, bytesIn(c, messages)]));
    let checked = 0;
    for (const row of rows.filter(
      (r): r is SessionRow & { direction: Direction; connectionId: string } => r.connectionId !== null,
    )) {
      const mine = messages
        .map((m, i) => [m, i] as const)
        .filter(([m]) => m.connectionId === row.connectionId && m.direction === row.direction);
      const bytes = mine.map(([, i]) => all[row.codec][i]);
      const where = `${row.codec} ${row.connectionId} ${row.direction}`;
      expect(row.left, where).toBe(0);
      expect(row.size, where).toBe(sum(bytes.map((b) => b.length)));
      const deflate = sum(bytes.map((b) => deflateSync(b).length));
      expect(row.deflate, where).toBe(deflate);
      expect(row.gzip, where).toBe(deflate + GZIP_FRAMING * bytes.length);
      expect(row.snappy, where).toBe(sum(bytes.map((b) => snappy.compress(b).length)));
      expect(row.wire.contextTakeover, where).toEqual(await wireOf(bytes, CONTEXT_TAKEOVER, row.direction));
      expect(row.wire.noContextTakeover, where).toEqual(await wireOf(bytes, NO_CONTEXT_TAKEOVER, row.direction));
      const header = NEGOTIATED.get(row.connectionId);
      if (header) {
        const parsed = parseDeflateExtension(header);
        if (!parsed.ok) throw new Error(parsed.error);
        expect(row.wire.negotiated, where).toEqual(await wireOf(bytes, parsed.params, row.direction));
      } else expect(row.wire.negotiated).toBeNull();
      checked++;
    }
    expect(checked).toBe(codecs.length * 4); // two connections, both directions
  }, 120_000);
});
