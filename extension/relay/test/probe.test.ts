// @vitest-environment jsdom
/**
 * `bytesAs: 'probe'` (Chrome): base64 until the background answers the port's `relay-hello`
 * that a Uint8Array arrived as one (structured-clone messaging, Chrome 148+), bytes after.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { relayConfigFor } from '../../background/validate.js';
import type { RelayBatch } from '../../shared/messages.js';
import { blobBytes, hookBatch, plainFrame, unpackWire } from '../../shared/test/plain-capture.js';
import { startRelay, type RelayHandle, type RelayPort } from '../relay.js';
import { hookLine } from './hook-line.js';

const win = window as Window & typeof globalThis;
let relay: RelayHandle | null = null;
let line: ((data: unknown) => void) | null = null;
afterEach(() => {
  relay?.stop();
  relay = null;
  line = null;
});

/**
 * A runtime whose ports carry messages the way `serialize` says and answer a hello as the
 * background does; the answer arrives asynchronously, as a port message would.
 */
function runtime(serialize: (m: unknown) => unknown) {
  const received: unknown[] = [];
  return {
    received,
    batches: () => received.filter((m): m is RelayBatch => (m as { type?: string }).type === 'relay-batch'),
    connect(): RelayPort {
      const listeners: ((m: unknown) => void)[] = [];
      return {
        postMessage(m) {
          const arrived = serialize(m);
          received.push(arrived);
          const answer = relayConfigFor(arrived);
          if (answer)
            queueMicrotask(() =>
              listeners.forEach((l) => {
                l(serialize(answer));
              }),
            );
        },
        onMessage: { addListener: (l) => void listeners.push(l) },
        onDisconnect: { addListener() {} },
      };
    },
  };
}

/** A hook batch of one frame, on the hook's private channel. */
const post = (seq: number, bytes: number[]) => (line ??= hookLine(win))(hookBatch(seq, [plainFrame(1, bytes)]));
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("bytesAs: 'probe'", () => {
  test('structured clone without Blobs: the first port message is the hello; bytes travel as bytes once the background said so', async () => {
    // In-process: a Uint8Array stays one, as under structured clone; a Blob arrives as a plain object.
    const rt = runtime((m) => (typeof m === 'object' && m !== null && 'probeBlob' in m ? { ...m, probeBlob: {} } : m));
    relay = startRelay({ win, runtime: rt, bytesAs: 'probe' });
    post(1, [1, 2, 3]);
    expect(rt.received[0]).toMatchObject({ type: 'relay-hello' });
    expect(rt.batches()[0]!.frameBytes).toEqual({ b64: 'AQID' }); // before the answer
    await tick();
    expect(relay.stats().bytesAs).toBe('bytes');
    post(2, [4, 5]);
    const second = rt.batches()[1]!;
    expect('bytes' in second.frameBytes && Array.from(second.frameBytes.bytes)).toEqual([4, 5]);
    expect(
      rt
        .batches()
        .flatMap(unpackWire)
        .map((f) => f.type === 'frame' && Array.from(new Uint8Array(f.data))),
    ).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(rt.received.filter((m) => (m as { type: string }).type === 'relay-hello')).toHaveLength(1);
  });

  test("bytes: a hook batch that is one relay batch is copied once (out of the hook's buffer), not sliced again for the port", async () => {
    const rt = runtime((m) => m);
    relay = startRelay({ win, runtime: rt, bytesAs: 'bytes' });
    const slices: number[] = [];
    const slice = Uint8Array.prototype.slice;
    Uint8Array.prototype.slice = function (this: Uint8Array, ...args: [number?, number?]) {
      slices.push(this.byteLength);
      return slice.apply(this, args);
    };
    try {
      (line ??= hookLine(win))(hookBatch(1, [plainFrame(1, [1, 2, 3]), plainFrame(2, [4, 5])]));
    } finally {
      Uint8Array.prototype.slice = slice;
    }
    const [batch] = rt.batches();
    expect(slices).toEqual([]);
    expect(
      rt
        .batches()
        .flatMap(unpackWire)
        .map((f) => f.type === 'frame' && Array.from(new Uint8Array(f.data))),
    ).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // Each posted array owns exactly its buffer: the structured clone copies nothing more.
    for (const w of [batch!.frameTable, batch!.frameBytes]) {
      const b = 'bytes' in w ? w.bytes : null;
      expect(b!.byteOffset === 0 && b!.byteLength === b!.buffer.byteLength).toBe(true);
    }
  });

  test('JSON: the probe arrives as a plain object, so bytes stay base64', async () => {
    const rt = runtime((m) => JSON.parse(JSON.stringify(m)));
    relay = startRelay({ win, runtime: rt, bytesAs: 'probe' });
    post(1, [1, 2, 3]);
    await tick();
    post(2, [4, 5]);
    expect(relay.stats().bytesAs).toBe('base64');
    expect(rt.batches().map((b) => b.frameBytes)).toEqual([{ b64: 'AQID' }, { b64: 'BAU=' }]);
  });

  test('structured clone with Blobs: frame bytes travel as one Blob per relay batch (no bytes posted on the page thread), the table as bytes', async () => {
    const rt = runtime((m) => m);
    relay = startRelay({ win, runtime: rt, bytesAs: 'probe', minBlobBytes: 0 });
    post(1, [1, 2, 3]);
    expect((rt.received[0] as { probeBlob?: unknown }).probeBlob).toBeInstanceOf(Blob);
    await tick();
    expect(relay.stats().bytesAs).toBe('blob');
    post(2, [4, 5]);
    (line ??= hookLine(win))(hookBatch(3, [plainFrame(1, [6]), plainFrame(2, []), plainFrame(1, [7, 8, 9, 10])]));
    const [, second, third] = rt.batches();
    expect('blob' in second!.frameBytes && second!.frameBytes.blob).toBeInstanceOf(Blob);
    expect('bytes' in second!.frameTable).toBe(true);
    const blobOf = (b: RelayBatch) => ('blob' in b.frameBytes ? b.frameBytes.blob : null)!;
    expect(Array.from(await blobBytes(blobOf(second!)))).toEqual([4, 5]);
    expect(Array.from(await blobBytes(blobOf(third!)))).toEqual([6, 7, 8, 9, 10]);
  });

  test('with Blobs, a relay batch under minBlobBytes (default 64 KiB) goes as bytes: a Blob costs the page more than small bytes', async () => {
    const rt = runtime((m) => m);
    relay = startRelay({ win, runtime: rt, bytesAs: 'probe' });
    post(1, [1]);
    await tick();
    expect(relay.stats().bytesAs).toBe('blob');
    const small = Array.from({ length: (64 << 10) - 1 }, (_, i) => i & 0xff);
    const large = Array.from({ length: 64 << 10 }, (_, i) => (i * 7) & 0xff);
    post(2, small);
    post(3, large);
    const [, second, third] = rt.batches();
    expect('bytes' in second!.frameBytes && second!.frameBytes.bytes.length).toBe(small.length);
    expect('blob' in third!.frameBytes && Array.from(await blobBytes(third!.frameBytes.blob))).toEqual(large);
  });

  test('the background answers only hellos', () => {
    expect(relayConfigFor({ type: 'relay-hello', probe: new Uint8Array(1) })).toEqual({
      type: 'relay-config',
      bytes: true,
      blobs: false,
    });
    expect(
      relayConfigFor({
        type: 'relay-hello',
        probe: new Uint8Array(1),
        probeBlob: new Blob([new Uint8Array([1, 2, 3])]),
      }),
    ).toEqual({ type: 'relay-config', bytes: true, blobs: true });
    // A Blob that lost its bytes on the way (or a plain object in its place) is not one.
    expect(relayConfigFor({ type: 'relay-hello', probe: new Uint8Array(1), probeBlob: new Blob([]) })).toEqual({
      type: 'relay-config',
      bytes: true,
      blobs: false,
    });
    expect(relayConfigFor({ type: 'relay-hello', probe: new Uint8Array(1), probeBlob: { size: 3 } })).toEqual({
      type: 'relay-config',
      bytes: true,
      blobs: false,
    });
    expect(relayConfigFor({ type: 'relay-hello', probe: { 0: 1 } })).toEqual({
      type: 'relay-config',
      bytes: false,
      blobs: false,
    });
    expect(relayConfigFor({ type: 'relay-batch' })).toBeNull();
    expect(relayConfigFor(null)).toBeNull();
  });
});
