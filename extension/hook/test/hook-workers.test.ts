// @vitest-environment jsdom
/**
 * Sockets opened inside workers are out of the page hook's reach; the hook at
 * least reports that the document started a dedicated or shared worker (a `worker` event,
 * resolved script URL), so the panel never stays silent about them. The page sees the
 * native constructors' API unchanged.
 */
import { afterEach, expect, test } from 'vitest';
import { setup, type Harness } from './harness.js';

let h: Harness;
const undo: (() => void)[] = [];
afterEach(() => {
  h?.cleanup();
  for (const fn of undo.splice(0)) fn();
});

/** Fake Worker / SharedWorker constructors (jsdom has none), native-like: script URL required, a bad URL throws. */
function fakeWorkers(win: Window & typeof globalThis): void {
  for (const name of ['Worker', 'SharedWorker'] as const) {
    const saved = Object.getOwnPropertyDescriptor(win, name);
    const ctor = {
      [name]: class {
        readonly script: string;
        constructor(url: string | URL, _options?: unknown) {
          if (arguments.length === 0)
            throw new TypeError(`Failed to construct '${name}': 1 argument required, but only 0 present.`);
          this.script = new URL(String(url), win.location.href).href;
          if (this.script.startsWith('bad:')) throw new DOMException('bad script', 'SecurityError');
        }
      },
    }[name];
    Object.defineProperty(win, name, { value: ctor, writable: true, configurable: true, enumerable: false });
    undo.push(() =>
      saved ? Object.defineProperty(win, name, saved) : delete (win as unknown as Record<string, unknown>)[name],
    );
  }
}

test('a dedicated and a shared worker are reported with their resolved script URLs; the API stays the native one', () => {
  fakeWorkers(window as Window & typeof globalThis);
  const NativeWorker = (window as unknown as { Worker: new (u: string | URL) => object }).Worker;
  h = setup({ nativeToString: true });
  const W = (h.win as unknown as { Worker: new (u: string | URL, o?: object) => { script: string } }).Worker;
  const SW = (h.win as unknown as { SharedWorker: new (u: string | URL, o?: object) => { script: string } })
    .SharedWorker;
  const w = new W('worker.js', { type: 'module' });
  const sw = new SW(new URL('/shared.js', h.win.location.href));
  expect(w.script).toBe(new URL('worker.js', h.win.location.href).href);
  expect(w instanceof W && Object.getPrototypeOf(w) === NativeWorker.prototype).toBe(true);
  expect(sw.script).toBe(new URL('/shared.js', h.win.location.href).href);
  expect([W.name, W.length, W.prototype === NativeWorker.prototype]).toEqual(['Worker', NativeWorker.length, true]);
  expect(() => new (W as unknown as new () => object)()).toThrow(/1 argument required/);
  expect(() => new W('bad:x')).toThrow('bad script');
  class Sub extends W {}
  expect(new Sub('sub.js') instanceof W).toBe(true);
  const workers = h.events().filter((e) => e.type === 'worker');
  expect(workers.map((e) => e.type === 'worker' && [e.kind, e.url, e.socketId])).toEqual([
    ['dedicated', new URL('worker.js', h.win.location.href).href, 0],
    ['shared', new URL('/shared.js', h.win.location.href).href, 0],
    ['dedicated', new URL('sub.js', h.win.location.href).href, 0],
  ]);
});

test('a script URL of any length is reported truncated (marked), never whole', () => {
  fakeWorkers(window as Window & typeof globalThis);
  h = setup();
  const W = (h.win as unknown as { Worker: new (u: string) => object }).Worker;
  new W(`data:text/javascript,${'x'.repeat(100_000)}`);
  const [ev] = h.events().filter((e) => e.type === 'worker');
  expect(ev?.type === 'worker' && ev.url.length).toBeLessThanOrEqual(4097);
  expect(ev?.type === 'worker' && ev.url.endsWith('…')).toBe(true);
});
