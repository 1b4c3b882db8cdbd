import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { decodeFrame } from '../codecs/index.js';
import { createJsonTraffic, createTraffic, type DemoMessage } from './traffic.js';

function take(next: () => DemoMessage, count: number): DemoMessage[] {
  return Array.from({ length: count }, next);
}

const sizeOf = (message: DemoMessage) =>
  typeof message.data === 'string' ? Buffer.byteLength(message.data) : message.data.length;

describe('demo traffic', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = createTraffic({ seed: 5, largeEvery: 0 });
    const b = createTraffic({ seed: 5, largeEvery: 0 });
    const c = createTraffic({ seed: 6, largeEvery: 0 });
    const first = take(() => a.next(), 150);
    const second = take(() => b.next(), 150);
    const other = take(() => c.next(), 150);
    // Byte comparison by Buffer.equals: a deep toEqual over megabytes of Uint8Array is slow.
    const fingerprint = (m: DemoMessage) =>
      `${m.kind} ${m.opcode} ${m.label} ${Buffer.from(m.data).toString('base64')}`;
    expect(second.map(fingerprint)).toEqual(first.map(fingerprint));
    expect(other.map((m) => m.label)).not.toEqual(first.map((m) => m.label));
    expect(a.count).toBe(150);
  });

  it('starts with the json-joy model snapshot, then mixes every kind', () => {
    const traffic = createTraffic({ seed: 3, largeEvery: 0, malformedChance: 0.05 });
    const messages = take(() => traffic.next(), 300);
    expect(messages[0].kind).toBe('crdt-model');
    const model = Model.fromBinary(messages[0].data as Uint8Array);
    expect(model.view()).toMatchObject({ title: 'Sprint 12 planning' });
    const kinds = new Set(messages.map((m) => m.kind));
    expect([...kinds].sort()).toEqual([
      'attachment',
      'cbor',
      'crdt-model',
      'crdt-patch',
      'json',
      'malformed',
      'msgpack',
      'protobuf',
      'socketio',
    ]);
    for (const message of messages)
      expect(message.opcode).toBe(message.kind === 'json' || message.kind === 'socketio' ? 'text' : 'binary');
    // A binary event's attachment follows it directly.
    messages.forEach((m, i) => {
      m.kind === 'attachment' && expect(messages[i - 1].label).toMatch(/upload/);
    });
  });

  it('patches replay onto the first snapshot into the later merged snapshot', () => {
    const traffic = createTraffic({ seed: 11, largeEvery: 0, malformedChance: 0 });
    const messages = take(() => traffic.next(), 400);
    const lastSnapshot = messages.map((m) => m.kind).lastIndexOf('crdt-model');
    expect(lastSnapshot).toBeGreaterThan(0);
    const replica = Model.fromBinary(messages[0].data as Uint8Array);
    const patches = messages.slice(0, lastSnapshot).filter((m) => m.kind === 'crdt-patch');
    expect(new Set(patches.map((m) => m.label.split(':')[0]))).toEqual(new Set(['crdt-patch alice', 'crdt-patch bob']));
    for (const message of patches) replica.applyPatch(Patch.fromBinary(message.data as Uint8Array));
    expect(replica.view()).toEqual(Model.fromBinary(messages[lastSnapshot].data as Uint8Array).view());
  });

  it('decodes every message as its kind, and malformed frames fail with an offset', () => {
    const traffic = createTraffic({ seed: 9, largeEvery: 0, malformedChance: 0.1 });
    for (const message of take(() => traffic.next(), 200)) {
      const bytes = typeof message.data === 'string' ? new TextEncoder().encode(message.data) : message.data;
      const decoded = decodeFrame(bytes, { isText: message.opcode === 'text', depth: 1 });
      if (message.kind === 'attachment') continue; // raw bytes: whatever they read as
      if (message.kind === 'malformed') {
        expect(decoded.error, message.label).not.toBeNull();
        expect(decoded.error!.offset, message.label).toBeGreaterThan(0);
      } else {
        expect(decoded.error, message.label).toBeNull();
        expect(decoded.format, message.label).toBe(message.kind);
      }
    }
  });

  it('sizes vary, and every largeEvery-th message is 1–3 MB', () => {
    const traffic = createTraffic({ seed: 2, largeEvery: 40 });
    const messages = take(() => traffic.next(), 121);
    const large = messages.filter((m) => sizeOf(m) > 900_000);
    expect(large.map((m) => messages.indexOf(m))).toEqual([40, 80, 120]);
    for (const message of large) {
      expect(sizeOf(message)).toBeLessThan(3_500_000);
      expect(message.label).toMatch(/\(large\)$/);
    }
    const small = messages.filter((m) => !large.includes(m)).map(sizeOf);
    expect(Math.min(...small)).toBeLessThan(200);
    expect(Math.max(...small)).toBeGreaterThan(5_000);
  });

  it('never sends a large message when largeEvery is 0', () => {
    const traffic = createTraffic({ seed: 2, largeEvery: 0 });
    expect(take(() => traffic.next(), 400).every((m) => sizeOf(m) < 900_000)).toBe(true);
  });

  it('the JSON channel is JSON text only', () => {
    const traffic = createJsonTraffic({ seed: 4 });
    for (const message of take(() => traffic.next(), 50)) {
      expect(message.opcode).toBe('text');
      expect(JSON.parse(message.data as string)).toHaveProperty('type');
    }
  });
});
