import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import { decodeFrame } from '../../../codecs/index.js';
import { yjsSummary } from './yjs-summary.js';

describe('the CRDT tab for a Yjs frame', () => {
  it('lists each struct and deleted range with its id, target, content and bytes, and each client clock', () => {
    const doc = new Y.Doc();
    doc.clientID = 9;
    doc.getText('t').insert(0, 'hello');
    doc.getText('t').delete(1, 2);
    doc.getMap('m').set('k', 1);
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeSyncStep2(e, doc, Uint8Array.from([0]));
    const index = decodeFrame(encoding.toUint8Array(e), { isText: false }).index!;
    const s = yjsSummary(index, 10_000)!;
    expect(s.kind).toBe('yjs');
    expect(s.title).toBe('sync step 2');
    expect(s.clock).toEqual([{ sid: '9', time: 6 }]);
    expect(s.ops!.map((o) => [o.id, o.op, o.target, o.detail, o.span])).toEqual([
      ['9.0', 'insert string', '"t"', '"h"', 1],
      ['9.1', 'insert deleted', 'after 9.0', '2 deleted', 2],
      ['9.3', 'insert string', 'after 9.2', '"lo"', 2],
      ['9.5', 'insert any', '"m"', '"k" = [1]', 1],
      ['9.1', 'delete', '', '', 2],
    ]);
    for (const o of s.ops!) expect(o.bytes).toBe(index.store.end[o.nodeId] - index.store.start[o.nodeId]);
    expect(s.contentBytes).toBeGreaterThan(0);
    expect(s.metadataBytes + s.contentBytes).toBe(index.bytes.length);
    expect(JSON.parse(s.viewJson).deleteSet).toEqual([{ client: 9, ranges: [{ clock: 1, length: 2 }] }]);
  });

  it('a state vector has clocks and no struct lines', () => {
    const index = decodeFrame(Uint8Array.from([0, 0, 3, 1, 9, 6]), { isText: false }).index!;
    const s = yjsSummary(index, 10_000)!;
    expect(s.clock).toEqual([{ sid: '9', time: 6 }]);
    expect(s.ops).toBeUndefined();
  });
});
