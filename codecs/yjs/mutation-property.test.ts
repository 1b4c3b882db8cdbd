import { describe, expect, test } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as A from '@automerge/automerge';
import { makeRng } from '../core/rng.js';
import { SpanIndex } from '../core/span-index.js';
import { decodeFrame } from '../index.js';
import { yjsWalker } from './walker.js';
import { automergeWalker } from '../automerge/walker.js';

/** Every recorded node inside its parent and the frame; an error's offset inside the frame. */
function soundPartialTree(index: SpanIndex): string | null {
  const { store } = index;
  const len = index.bytes.length;
  if (index.error && (index.error.offset < 0 || index.error.offset > len)) return `error offset ${index.error.offset}`;
  for (let id = 0; id < store.size; id++) {
    const p = store.parent[id];
    if (store.start[id] > store.end[id] || store.end[id] > len)
      return `node ${id} [${store.start[id]}, ${store.end[id]})`;
    if (p >= 0 && (store.start[id] < store.start[p] || store.end[id] > store.end[p])) return `node ${id} outside ${p}`;
  }
  return null;
}

function yjsFrame(): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = 77;
  doc.getText('t').insert(0, 'hello wörld');
  doc.getText('t').delete(2, 3);
  doc.getMap('m').set('k', { a: [1, 2.5, 'x', null, true], b: new Uint8Array([1, 2]) });
  doc.getArray('l').insert(0, [new Y.Map(), 'v']);
  doc.getXmlFragment('x').insert(0, [new Y.XmlElement('p')]);
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  syncProtocol.writeSyncStep2(e, doc, Uint8Array.from([0]));
  return encoding.toUint8Array(e);
}

describe('broken Yjs and Automerge frames never throw and keep a sound partial tree', () => {
  const frames: [string, Uint8Array, typeof yjsWalker][] = [
    ['yjs', yjsFrame(), yjsWalker],
    ['automerge', A.save(A.change(A.from({ t: 'hi', n: [1] }), (d) => void d.n.push(2))), automergeWalker],
  ];
  for (const [name, whole, walker] of frames) {
    test(`${name}: every truncation and 2,000 random byte changes`, () => {
      const rng = makeRng(26);
      const inputs: Uint8Array[] = [];
      for (let n = 0; n < whole.length; n++) inputs.push(whole.subarray(0, n));
      for (let i = 0; i < 2000; i++) {
        const b = whole.slice();
        for (let k = rng.range(1, 3); k > 0; k--) b[rng.int(b.length)] = rng.int(256);
        inputs.push(b);
      }
      for (const input of inputs) {
        const index = new SpanIndex(input, walker);
        expect(index.error?.code).not.toBe('internal');
        expect(soundPartialTree(index)).toBeNull();
        if (index.root >= 0 && !index.error) index.value(index.root);
        expect(() => decodeFrame(input, { isText: false })).not.toThrow();
      }
    });
  }
});
