/**
 * Broken frames of the kinds real systems send: a CBOR frame cut short, a CBOR frame with a
 * reserved additional-info value (0x1c–0x1e are unassigned in RFC 8949), and a MessagePack
 * frame whose declared length runs past the end of the frame. Each starts from a well-formed
 * encoding and breaks exactly one thing, so the inspector's error offset points at it.
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { randomBytes, type Rng } from './rng.js';

export interface MalformedFrame {
  readonly name: string;
  readonly data: Uint8Array;
}

const cbor = new CborEncoder();
const msgpack = new MsgPackEncoder();

/** A CBOR order whose last bytes never arrived. */
function truncatedCbor(rng: Rng): MalformedFrame {
  const full = cbor.encode({
    type: 'order.updated',
    orderId: `ORD-${rng.range(100000, 999999)}`,
    status: 'shipped',
    note: 'left at the front desk',
  });
  const cut = rng.range(3, 12);
  return { name: 'cbor: truncated', data: full.slice(0, full.length - cut) };
}

/** A CBOR map whose last value is `0x1c`: major type 0 with a reserved additional info. */
function reservedInfoCbor(rng: Rng): MalformedFrame {
  const full = cbor.encode({ type: 'stock.level', sku: 'KB-104', warehouse: rng.range(1, 9), qty: 0 });
  const data = full.slice();
  data[data.length - 1] = 0x1c; // was 0x00 (qty: 0)
  return { name: 'cbor: reserved additional info 0x1c', data };
}

/** A MessagePack bin8 that claims 200 bytes where 40 follow. */
function overlongMsgpack(rng: Rng): MalformedFrame {
  const full = msgpack.encode({ type: 'upload', name: 'avatar.png', blob: randomBytes(rng, 40) });
  const data = full.slice();
  const header = data.length - 42; // c4 28 <40 bytes>: the bin8 is the last field
  if (data[header] !== 0xc4 || data[header + 1] !== 40) throw new Error('unexpected MessagePack layout');
  data[header + 1] = 200;
  return { name: 'msgpack: length past end', data };
}

const BUILDERS = [truncatedCbor, reservedInfoCbor, overlongMsgpack];

export function malformedFrame(rng: Rng): MalformedFrame {
  return rng.pick(BUILDERS)(rng);
}
