/**
 * Demo frames in the shapes real apps send that are not a bare CBOR / MessagePack / JSON
 * value: Protobuf (the demo.proto schema beside this file) and Socket.IO packets, including
 * a binary event whose attachment follows as its own binary frame.
 */
import { pngImage } from './png.js';
import protobuf from 'protobufjs';
import type { Rng } from './rng.js';

const root = protobuf.Root.fromJSON({
  nested: {
    demo: {
      nested: {
        Side: { values: { SIDE_UNSPECIFIED: 0, BUY: 1, SELL: 2 } },
        Meta: { fields: { source: { type: 'string', id: 1 }, seq: { type: 'uint64', id: 2 } } },
        Trade: {
          fields: {
            symbol: { type: 'string', id: 1 },
            price: { type: 'double', id: 2 },
            qty: { type: 'sint64', id: 3 },
            side: { type: 'Side', id: 4 },
            venues: { rule: 'repeated', type: 'uint32', id: 5 },
            meta: { type: 'Meta', id: 6 },
          },
        },
      },
    },
  },
});
export const TradeType = root.lookupType('demo.Trade');

const SYMBOLS = ['ACME', 'GLOBX', 'INITECH', 'UMBRL', 'WAYNE'];

/** A demo.Trade message; its first field (symbol, tag 0x0a) keeps CBOR and MessagePack from reading it whole. */
export function protobufTrade(rng: Rng, seq: number): Uint8Array {
  const trade = {
    symbol: rng.pick(SYMBOLS),
    price: Math.round(rng() * 100000) / 100,
    qty: rng.range(-500, 500) || 1,
    side: rng.range(1, 2),
    venues: Array.from({ length: rng.range(1, 4) }, () => rng.range(1, 400)),
    meta: { source: rng.bool() ? 'feed-a' : 'feed-b', seq },
  };
  return TradeType.encode(TradeType.fromObject(trade)).finish();
}

/** `42["chat",{…}]`: a Socket.IO v4 event as a text frame. */
export function socketIoEvent(rng: Rng, nowMs: number): string {
  const users = ['ann', 'bo', 'cy'];
  return `42${JSON.stringify(['chat message', { user: rng.pick(users), text: rng.pick(['hi', 'on my way', 'deploying now ☕', 'lgtm']), at: nowMs }])}`;
}

/** A Socket.IO binary event and its attachment: `451-["upload",{…"_placeholder":true,"num":0}]`, then the bytes. */
export function socketIoUpload(rng: Rng): [string, Uint8Array] {
  // A real 320×200 image (a gradient with a random blue), so the inspector can draw its thumbnail.
  const blue = rng.range(0, 255);
  const png = pngImage(320, 200, (x, y) => [Math.round((x * 255) / 319), Math.round((y * 255) / 199), blue]);
  return [
    `451-${JSON.stringify(['upload', { name: 'avatar.png', type: 'image/png', data: { _placeholder: true, num: 0 } }])}`,
    png,
  ];
}
