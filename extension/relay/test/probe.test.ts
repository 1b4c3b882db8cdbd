// @vitest-environment jsdom
/**
 * `bytesAs: 'probe'` (Chrome): base64 until the background answers the port's `relay-hello`
 * that a Uint8Array arrived as one (structured-clone messaging, Chrome 148+), bytes after.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { relayConfigFor } from '../../background/validate.js';
import type { RelayBatch } from '../../shared/messages.js';
import { hookBatch, plainFrame, unpackWire } from '../../shared/test/plain-capture.js';
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
          if (answer) queueMicrotask(() => listeners.forEach((l) => l(serialize(answer))));
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
  test('structured clone: the first port message is the hello; bytes travel as bytes once the background said so', async () => {
    const rt = runtime((m) => m); // in-process: a Uint8Array stays one, as under structured clone
    relay = startRelay({ win, runtime: rt, bytesAs: 'probe' });
    post(1, [1, 2, 3]);
    expect(rt.received[0]).toMatchObject({ type: 'relay-hello' });
    expect(rt.batches()[0]!.frameBytes).toEqual({ b64: 'AQID' }); // before the answer
    await tick();
    expect(relay.stats().bytesAs).toBe('bytes');
    post(2, [4, 5]);
    const second = rt.batches()[1]!;
    expect('bytes' in second.frameBytes && Array.from(second.frameBytes.bytes)).toEqual([4, 5]);
    expect(rt.batches().flatMap(unpackWire).map((f) => f.type === 'frame' && Array.from(new Uint8Array(f.data)))).toEqual([[1, 2, 3], [4, 5]]);
    expect(rt.received.filter((m) => (m as { type: string }).type === 'relay-hello')).toHaveLength(1);
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

  test('the background answers only hellos', () => {
    expect(relayConfigFor({ type: 'relay-hello', probe: new Uint8Array(1) })).toEqual({ type: 'relay-config', bytes: true });
    expect(relayConfigFor({ type: 'relay-hello', probe: { 0: 1 } })).toEqual({ type: 'relay-config', bytes: false });
    expect(relayConfigFor({ type: 'relay-batch' })).toBeNull();
    expect(relayConfigFor(null)).toBeNull();
  });
});
