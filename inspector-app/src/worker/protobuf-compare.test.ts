import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { WorkerHandlers } from './handlers.js';
import { runCompare } from './compare-job.js';
import type { CompareRowView } from './api.js';

/** A Protobuf frame read with a schema compares by its value: field names, enums by name. */
const PROTO =
  'syntax = "proto3"; package demo; enum Side { BUY = 0; SELL = 1; } message Trade { string symbol = 1; Side side = 2; double price = 3; uint32 qty = 4; }';
const Trade = protobuf.parse(PROTO, new protobuf.Root(), { keepCase: true }).root.lookupType('demo.Trade');
const trade = Trade.encode(Trade.fromObject({ symbol: 'ACME', side: 1, price: 12.5, qty: 300 })).finish();

async function compareRows(
  h: WorkerHandlers,
  frameId: number,
): Promise<{ rows: CompareRowView[]; error: string | null }> {
  const index = h.store.decoded(frameId, 'auto')!.index!;
  const rows: CompareRowView[] = [];
  let error: string | null = null;
  await runCompare({
    index,
    nodeId: index.root,
    signal: new AbortController().signal,
    sink: { row: (r) => rows.push(r), end: (_c, e) => (error = e) },
    title: 'test',
  });
  return { rows, error };
}

describe('comparison of a Protobuf frame with a schema', () => {
  it('re-encodes the decoded value: JSON is the object protobufjs would give, lossless', async () => {
    const h = new WorkerHandlers();
    h.store.add({ frameId: 1, connectionId: 'c1', direction: 'received', time: 0, opcode: 'binary', data: trade });
    h.methods.setSchema({ files: [{ name: 'demo.proto', source: PROTO }] });
    const { rows, error } = await compareRows(h, 1);
    expect(error).toBeNull();
    const json = rows.find((r) => r.codec.toLowerCase() === 'json')!;
    expect(json.size).toBe(JSON.stringify({ symbol: 'ACME', side: 'SELL', price: 12.5, qty: 300 }).length);
    expect(json.lossless).toBe('yes');
    expect(rows.filter((r) => r.size !== null).length).toBeGreaterThan(3);
  }, 60_000);

  it('without the schema the raw value (numbered fields) is what is compared', async () => {
    const h = new WorkerHandlers();
    h.store.add({ frameId: 1, connectionId: 'c1', direction: 'received', time: 0, opcode: 'binary', data: trade });
    const index = h.store.decoded(1, 'auto')!.index!;
    expect(index.value(index.root)).toBeInstanceOf(Map);
  });
});
