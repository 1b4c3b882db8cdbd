import { describe, expect, it, vi } from 'vitest';
import { SpanIndex } from '../core/span-index.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { jsonWalker } from '../json/walker.js';
import { socketIoPacket, socketIoWalker } from './socketio-walker.js';

// Every call of the UTF-8 validator is counted (and passed through): a walk validates each
// run of non-ASCII bytes once, so the calls count the walks over a payload.
vi.mock('../core/utf8.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../core/utf8.js')>();
  return { ...original, findInvalidUtf8: vi.fn(original.findInvalidUtf8) };
});
const validations = vi.mocked(findInvalidUtf8);

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Calls of the UTF-8 validator while indexing `bytes`. */
function validationsOf(bytes: Uint8Array, walker: typeof jsonWalker, depth?: number): number {
  validations.mockClear();
  new SpanIndex(bytes, walker, depth === undefined ? {} : { depth });
  return validations.mock.calls.length;
}

describe('Socket.IO walker: the JSON payload is walked once', () => {
  // Eight strings with non-ASCII text: the JSON walker validates eight runs.
  const args = ['chat ☕', ...Array.from({ length: 7 }, (_, i) => ({ from: `änn ${i}`, n: i }))];
  const json = utf8(JSON.stringify(args));
  const frames = {
    '42': utf8(`42${JSON.stringify(args)}`),
    '451-/admin,12': utf8(`451-/admin,12${JSON.stringify(args)}`),
  };

  for (const [prefix, frame] of Object.entries(frames)) {
    it(`${prefix}[…] indexed whole validates each run of the payload as often as the JSON walker does on the same bytes`, () => {
      const plain = validationsOf(json, jsonWalker);
      expect(plain).toBe(8);
      expect(validationsOf(frame, socketIoWalker)).toBe(plain);
    });

    it(`${prefix}[…] at depth 1 (how detection reads a frame, with the event name) validates each run once`, () => {
      expect(validationsOf(frame, socketIoWalker, 1)).toBe(validationsOf(json, jsonWalker, 1));
      const index = new SpanIndex(frame, socketIoWalker, { depth: 1 });
      expect(socketIoPacket(index)?.event).toBe('chat ☕');
    });
  }

  it('at depth 0 too, the event name included', () => {
    expect(validationsOf(frames['42'], socketIoWalker, 0)).toBe(validationsOf(json, jsonWalker, 0));
    expect(socketIoPacket(new SpanIndex(frames['42'], socketIoWalker, { depth: 0 }))?.event).toBe('chat ☕');
  });
});

describe('Socket.IO walker: an index read at depth 0 expands later', () => {
  it('to the packet a full index reads, with no error on a valid frame', () => {
    for (const text of [
      '42["chat",{"a":[1,2]}]',
      '451-/admin,12["up",{"_placeholder":true,"num":0}]',
      '0{"sid":"x"}',
      '2probe',
      '4hello',
      '3',
    ]) {
      const full = new SpanIndex(utf8(text), socketIoWalker);
      const shallow = new SpanIndex(utf8(text), socketIoWalker, { depth: 0 });
      shallow.expandAll(shallow.root);
      expect({ text, error: shallow.error }).toEqual({ text, error: null });
      expect(shallow.value(shallow.root)).toEqual(full.value(full.root));
      expect(shallow.children(shallow.root).map((id) => [shallow.store.start[id], shallow.store.end[id]])).toEqual(
        full.children(full.root).map((id) => [full.store.start[id], full.store.end[id]]),
      );
    }
  });

  it('and a broken one keeps its first error', () => {
    const shallow = new SpanIndex(utf8('42["chat",{"a":[1,2}]'), socketIoWalker, { depth: 0 });
    const error = shallow.error;
    expect(error?.offset).toBe(19);
    shallow.expandAll(shallow.root);
    expect(shallow.error).toEqual(error);
  });
});

describe('Socket.IO walker: event names', () => {
  it('a name read again is the same; names that share a cache slot (length, first and last byte) stay apart', () => {
    const names = ['abxc', 'abyc', 'abxc', 'a\u00e9c', 'ab\\"c', 'abyc', ''];
    for (const name of [...names, ...names]) {
      const index = new SpanIndex(utf8(`42${JSON.stringify([name.replace('\\"', '"'), 1])}`), socketIoWalker);
      expect(socketIoPacket(index)?.event).toBe(name.replace('\\"', '"'));
    }
  });
});
