/**
 * Writes the sample frames in samples/ (committed; rerun after changing the document):
 * the same order-book update as CBOR, MessagePack and JSON, plus a truncated CBOR frame.
 * Usage: npx tsx scripts/make-samples.ts
 */
import { writeFileSync } from 'node:fs';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';

const order = {
  type: 'order.update',
  seq: 18446744073709551615n,
  ts: 1763750400.125,
  user: { id: 'u_8f3a2c', name: 'Ada Lovelace', roles: ['trader', 'admin'] },
  items: [
    { sku: 'BTC-USD', qty: 0.25, price: 97312.5, tags: ['limit', 'gtc'] },
    { sku: 'ETH-USD', qty: 3, price: 3650.12, tags: ['market'] },
  ],
  signature: new Uint8Array([0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04]),
  note: null,
};

const cbor = new CborEncoder().encode(order);
writeFileSync('samples/order.cbor', cbor);
const { seq: _seq, signature: _sig, ...plain } = order;
writeFileSync('samples/order.msgpack', new MsgPackEncoder().encode({ ...plain, seq: 42 }));
writeFileSync('samples/order.json', JSON.stringify({ ...plain, seq: 42 }, null, 2) + '\n');
writeFileSync('samples/order-truncated.cbor', cbor.subarray(0, cbor.length - 20));
console.log(`samples/order.cbor ${cbor.length} bytes`);
