// @vitest-environment jsdom
/**
 * The whole capture path in one process: the hook (on a fake WebSocket) → private channel →
 * relay → runtime port (JSON for base64, structured clone for bytes and Blobs) → TabBuffers → panel
 * backlog → PanelConverter. Every frame must come out byte-exact, in order, with its
 * direction, opcode and connection, across many small batches and a frame over the limit.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { makeRng } from '../../codecs/core/rng.js';
import { TabBuffers } from '../background/tab-buffers.js';
import { isRelayBatch, relayConfigFor } from '../background/validate.js';
import { setup, type Harness } from '../hook/test/harness.js';
import { startRelay, type RelayHandle, type RelayPort } from '../relay/relay.js';
import type { PanelItem, RelayBatch } from '../shared/messages.js';
import { PanelConverter } from './convert.js';
import { blobBytes, fillBuffers } from '../shared/test/plain-capture.js';
import { framesOf } from '../shared/test/frames-of.js';

const win = window as Window & typeof globalThis;
let hook: Harness | null = null;
let relay: RelayHandle | null = null;
afterEach(() => {
  relay?.stop();
  hook?.cleanup();
  relay = hook = null;
});

/**
 * A relay port that hands each message to `deliver`: through JSON for base64, as Chrome
 * carries it; as is for bytes (structuredClone would make Node's typed arrays, which are
 * not jsdom's: the background's `instanceof` would refuse them, as no browser would).
 */
function port(as: 'base64' | 'bytes' | 'blob', deliver: (m: RelayBatch) => void): RelayPort {
  const listeners: ((m: unknown) => void)[] = [];
  return {
    postMessage(m) {
      // Blobs: the relay probes (as in Chrome) and the background's answer comes at once.
      const answer = as === 'blob' ? relayConfigFor(m) : null;
      if (answer)
        listeners.forEach((l) => {
          l(answer);
        });
      else deliver((as === 'base64' ? JSON.parse(JSON.stringify(m)) : m) as RelayBatch);
    },
    onMessage: { addListener: (l) => void listeners.push(l) },
    onDisconnect: { addListener() {} },
  };
}

/** A panel item with its Blob of frame bytes read (what the panel's transport does: port-transport.ts). */
async function readItem(item: PanelItem): Promise<PanelItem> {
  return item.type === 'events' && 'blob' in item.frameBytes
    ? { ...item, frameBytes: { bytes: await blobBytes(item.frameBytes.blob) } }
    : item;
}

interface Expected {
  readonly socket: number;
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  readonly bytes: Uint8Array;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

for (const as of ['base64', 'bytes', 'blob'] as const) {
  describe(`hook → relay → background → panel (${as})`, () => {
    test('thousands of mixed frames arrive byte-exact and in order per socket, incl. 0-byte frames, Blobs and a frame over the batch limit', async () => {
      hook = setup({ maxBatchBytes: 4096, flushIntervalMs: 5 });
      const buffers = new TabBuffers({ bufferId: 'life' });
      const relayed: RelayBatch[] = [];
      relay = startRelay({
        win,
        runtime: { connect: () => port(as, (m) => relayed.push(m)) },
        bytesAs: as === 'blob' ? 'probe' : as,
        documentId: 'doc',
        minBlobBytes: 2048,
      });
      const a = new hook.WS('ws://example.test/a');
      const b = new hook.WS('ws://example.test/b');
      a.open();
      b.open();
      b.binaryType = 'arraybuffer';
      const expected: Expected[] = [];
      const next = makeRng(7);
      const backing = new Uint8Array(20_000).map((_, i) => (i * 131) & 0xff);
      const texts = ['', 'plain', 'héllo → 🌍', 'lone \uD800 surrogate', '日本語'.repeat(50)];
      for (let i = 0; i < 3000; i++) {
        const pick = Math.floor(next() * 8);
        const size = Math.floor(next() * (next() < 0.1 ? 3000 : 120));
        const start = Math.floor(next() * 1000);
        const view = backing.subarray(start, start + size);
        if (pick === 0) {
          a.send(view);
          expected.push({ socket: 1, direction: 'sent', opcode: 'binary', bytes: view.slice() });
        } else if (pick === 1) {
          const s = texts[i % texts.length]! + i;
          a.send(s);
          expected.push({ socket: 1, direction: 'sent', opcode: 'text', bytes: utf8(s) });
        } else if (pick === 2) {
          b.send(new DataView(backing.buffer, start, size));
          expected.push({ socket: 2, direction: 'sent', opcode: 'binary', bytes: view.slice() });
        } else if (pick === 3) {
          b.send(view.slice().buffer);
          expected.push({ socket: 2, direction: 'sent', opcode: 'binary', bytes: view.slice() });
        } else if (pick === 4) {
          b.deliver(view);
          expected.push({ socket: 2, direction: 'received', opcode: 'binary', bytes: view.slice() });
        } else if (pick === 5) {
          const s = texts[(i * 3) % texts.length]!;
          b.deliver(s);
          expected.push({ socket: 2, direction: 'received', opcode: 'text', bytes: utf8(s) });
        } else if (pick === 6) {
          a.send(new Uint8Array(0));
          expected.push({ socket: 1, direction: 'sent', opcode: 'binary', bytes: new Uint8Array(0) });
        } else {
          a.send(new Int16Array(backing.buffer, start * 2, size >> 1));
          expected.push({
            socket: 1,
            direction: 'sent',
            opcode: 'binary',
            bytes: new Uint8Array(backing.buffer, start * 2, (size >> 1) * 2).slice(),
          });
        }
        if (i === 1500) {
          const big = backing.subarray(0, 10_000); // over maxBatchBytes: a batch of its own
          a.send(big);
          expected.push({ socket: 1, direction: 'sent', opcode: 'binary', bytes: big.slice() });
          const long = 'é'.repeat(2000); // 3 × 2000 > maxBatchBytes: encoded apart, then copied
          b.send(long);
          expected.push({ socket: 2, direction: 'sent', opcode: 'text', bytes: utf8(long) });
          a.send(new hook.win.Blob([backing.subarray(5, 25)])); // read asynchronously; what follows waits
          expected.push({ socket: 1, direction: 'sent', opcode: 'binary', bytes: backing.slice(5, 25) });
        }
      }
      a.close(1000, 'done');
      await vi.waitFor(() => {
        hook!.hook.flush();
        expect(hook!.hook.stats().pendingBytes).toBe(0);
        expect(hook!.events().filter((e) => e.type === 'close')).toHaveLength(1);
      });
      // Each post reached the relay as it was made, on the hook's private channel (the relay took its port at start).
      expect(hook.posts.length).toBeGreaterThan(50);
      expect(relay.stats()).toMatchObject({ lostBatches: 0, droppedFrames: 0 });
      for (const m of relayed) {
        expect(isRelayBatch(m)).toBe(true);
        buffers.ingest(7, m);
      }
      const converter = new PanelConverter();
      const out: HostMessage[] = [];
      for (const batch of buffers.backlog(7))
        out.push(...converter.convert(await Promise.all(batch.items.map(readItem))));
      // The first batch was made before the probe's answer: base64; every later one a Blob
      // from minBlobBytes on, bytes under it (both kinds here: batches of up to 4 KiB).
      if (as === 'blob') {
        const kinds = relayed
          .slice(1)
          .map((m) => ('blob' in m.frameBytes ? 'blob' : 'bytes' in m.frameBytes ? 'bytes' : 'b64'));
        expect(new Set(kinds)).toEqual(new Set(['blob', 'bytes']));
        for (const m of relayed.slice(1))
          expect(
            'blob' in m.frameBytes
              ? m.frameBytes.blob.size >= 2048
              : 'bytes' in m.frameBytes && m.frameBytes.bytes.length < 2048,
          ).toBe(true);
      }
      expect(out.filter((m) => m.type === 'dropped')).toEqual([]);
      const frames = framesOf(out);
      expect(frames).toHaveLength(expected.length);
      const plain = (e: Expected) => ({ ...e, bytes: Array.from(e.bytes) });
      const got = frames.map((f) =>
        plain({
          socket: Number(f.connectionId.split(':')[1]),
          direction: f.direction,
          opcode: f.opcode,
          bytes: f.data,
        }),
      );
      // Order is per socket (frames of socket 1 wait behind its Blob; socket 2's do not).
      for (const socket of [1, 2]) {
        const want = expected.filter((e) => e.socket === socket).map(plain);
        const have = got.filter((e) => e.socket === socket);
        expect(have).toHaveLength(want.length);
        for (let i = 0; i < want.length; i++) expect(have[i], `socket ${socket}, frame ${i}`).toEqual(want[i]);
      }
      expect(fillBuffers(frames)).toBe(true); // own buffers or views that fill one batch buffer: nothing else kept alive
      expect(out.filter((m) => m.type !== 'frames' && m.type !== 'frames-packed').map((m) => m.type)).toEqual([
        'connection-opening',
        'connection-opening',
        'connection-opened',
        'connection-opened',
        'connection-closed',
      ]);
    });
  });
}

describe('forged frames', () => {
  test('a relay batch whose table does not fit its bytes loses its frames (counted), keeps its socket events', () => {
    const converter = new PanelConverter();
    const table = new Float64Array([1, 2, 5, 10, 1, 2, 6, 10]); // two 10-byte frames …
    const events = [{ type: 'opening', socketId: 1, url: 'ws://x/', time: 1, at: 0 }] as const;
    const item = {
      type: 'events',
      documentId: 'd',
      seq: 1,
      lostBatches: 0,
      events,
      frameTable: { bytes: new Uint8Array(table.buffer) },
      frameBytes: { bytes: new Uint8Array(15) },
    } as const; // … in 15 bytes
    expect(converter.convert([item])).toEqual([
      { type: 'connection-opening', connectionId: 'd:1', url: 'ws://x/', time: 1 },
      { type: 'dropped', count: 2, reason: 'frames arrived with bytes the panel could not read' },
    ]);
  });
});
