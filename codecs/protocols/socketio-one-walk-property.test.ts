import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SpanIndex } from '../core/span-index.js';
import { socketIoPacket, socketIoWalker } from './socketio-walker.js';
import { twoWalkPacket, twoWalkSocketIoWalker } from './test/socketio-two-walk.js';

/**
 * The one-walk Socket.IO walker (the JSON payload walked in place, under the packet's root)
 * gives exactly what the old two walks gave (validate the payload on the side, then walk it
 * again): node for node, the error with its offset and message, the warnings, the packet,
 * on generated packets whole, truncated and mutated, at every depth, and again after the
 * tree is expanded lazily.
 */
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const jsonArgs = fc.array(fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' }), { maxLength: 4 });

/** Payload text: event arrays, other JSON values, and hand-written JSON the generators never write (spacing, escapes, duplicate keys). */
const payload = fc.oneof(
  fc.tuple(text, jsonArgs).map(([event, rest]) => JSON.stringify([event, ...rest])),
  fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v, null, 1) ?? 'null'),
  fc.constantFrom(
    '[ "ev" , {"a":1,"a":2} ]',
    '["\\u0061b\\n", 1e5, -0.5, true, false, null]',
    '{"sid":"x","upgrades":[],"pingInterval":25000}',
    '{"a":{"b":{"c":[1,{"c":2,"c":3}]}},"a":0}',
    '"probe"',
    '[]',
    '{}',
    '["ev"] ',
    '[1,2]x',
  ),
  text,
);

/** A v4 text packet: Engine.IO type, then (for a message) Socket.IO type, attachments, namespace, ack id, payload. */
const packet = fc
  .record({
    engine: fc.constantFrom('0', '1', '2', '3', '4', '4', '4', '4', '5', '6', '7', 'x'),
    socket: fc.constantFrom('', '0', '1', '2', '2', '2', '3', '4', '5', '6', '9'),
    // The shapes the walker reads on its fast path (`4X`, `45N-`, `/ns,`, an ack id, then `[`
    // or `{`) and their near misses, which the general path reads: no digit or no '-', a
    // namespace without its comma or with a query, runs of digits at and past 15.
    attachments: fc.constantFrom('', '', '1-', '12-', '3', '-', '123456789012345-', '1234567890123456-'),
    namespace: fc.constantFrom('', '', '/admin,', '/', '/a/b,', '/x', '/,', '/ad?x=1,', '/ad?x', '/é,'),
    ack: fc.constantFrom('', '', '7', '123456', '123456789012345', '1234567890123456', 'a', '1a'),
    payload: fc.option(payload, { nil: '' }),
  })
  .map((p) => utf8(p.engine + (p.engine === '4' ? p.socket + p.attachments + p.namespace + p.ack : '') + p.payload));

/** The packet as sent, cut short, with a byte replaced or inserted, or with bytes after it. */
const frame = fc.oneof(
  { weight: 3, arbitrary: packet },
  fc.tuple(packet, fc.nat()).map(([b, n]) => b.subarray(0, b.length ? n % b.length : 0)),
  fc.tuple(packet, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([b, n, v]) => {
    const out = b.slice();
    if (out.length) out[n % out.length] = v;
    return out;
  }),
  fc
    .tuple(packet, fc.nat(), fc.constantFrom(0x22, 0x5b, 0x5d, 0x7b, 0x7d, 0x2c, 0x3a, 0x5c, 0x20, 0x00, 0xe2, 0xff))
    .map(([b, n, v]) => {
      const at = b.length ? n % (b.length + 1) : 0;
      return Uint8Array.from([...b.subarray(0, at), v, ...b.subarray(at)]);
    }),
);

const depth = fc.constantFrom(0, 1, 2, 3, Infinity);

/** Everything an index holds that a reader can see: every node's fields, the error, the warnings. */
function snapshot(index: SpanIndex): unknown {
  const { store } = index;
  const nodes: unknown[] = [];
  for (let id = 0; id < store.size; id++) {
    nodes.push([
      id,
      store.kind[id],
      store.start[id],
      store.end[id],
      store.parent[id],
      store.firstChild[id],
      store.nextSibling[id],
      store.flags[id],
      store.head[id],
      store.arg[id],
    ]);
  }
  return { nodes, error: index.error, warnings: index.warnings };
}

/** The recorded tree by position, whatever the order its nodes were recorded in: kind, span, flags, arg and children. */
function tree(index: SpanIndex): unknown {
  const { store } = index;
  const children = new Map<number, number[]>();
  for (let id = 1; id < store.size; id++)
    children.set(store.parent[id], [...(children.get(store.parent[id]) ?? []), id]);
  const at = (id: number): unknown[] => [
    store.kind[id],
    store.start[id],
    store.end[id],
    store.flags[id],
    store.head[id],
    store.arg[id],
    (children.get(id) ?? []).map(at),
  ];
  return index.root >= 0 ? at(index.root) : null;
}

/** Expands every recorded container, as a reader opening the whole tree would. */
function expandEverything(index: SpanIndex): void {
  if (index.root >= 0) index.expandAll(index.root);
}

/**
 * The prefixes the walker reads on its fast path (`4X`, `45N-`, `/ns,`, an ack id, then `[` or
 * `{`) and their near misses, which it leaves to the general path: cut short, no comma, a
 * query, a non-digit ack id, a string payload, 15 digits and 16.
 */
const FAST_PATH_EDGES = [
  '4/',
  '4/a,[]',
  '45-',
  '45-[]',
  '451-/',
  '451-/admin,12',
  '451-/admin,12[',
  '451-/admin,12["up",{"_placeholder":true,"num":0}]',
  '42/chat,',
  '42/chat,["m"]',
  '42/chat["m"]',
  '42/chat?x=1,["m"]',
  '4213["ev"]',
  '4213',
  '4213x',
  '421a["ev"]',
  '40/admin,{"sid":"x"}',
  '44/a,{"message":"no"}',
  '44/a,"no"',
  '46123456789012345-/b,123456789012345[1]',
  '461234567890123456-[1]',
  '421234567890123456[1]',
  '42123456789012345[1]',
  '43/a,9[]',
  '47/a,[]',
  '5/a,[]',
];

describe('Socket.IO walker: one walk equals the old two walks', () => {
  it('on generated packets, whole, truncated and mutated, at every depth', () => {
    fc.assert(
      fc.property(frame, depth, (bytes, d) => {
        const one = new SpanIndex(bytes, socketIoWalker, { depth: d });
        const two = new SpanIndex(bytes, twoWalkSocketIoWalker, { depth: d });
        expect(snapshot(one)).toEqual(snapshot(two));
        expect(socketIoPacket(one)).toEqual(twoWalkPacket(two));
        if (d === 0) {
          // The old walker expanded a depth-0 root as JSON text (`42[…` read as an object's
          // inside: an error on a valid frame); now its parts are read as a full index reads
          // them (in another order of node ids).
          const full = new SpanIndex(bytes, socketIoWalker);
          if (!full.error) expect(one.value(one.root)).toEqual(full.value(full.root));
          expandEverything(one);
          expandEverything(full);
          expect(tree(one)).toEqual(tree(full));
          expect({ error: one.error, warnings: one.warnings.length }).toEqual({
            error: full.error,
            warnings: full.warnings.length,
          });
          expect(socketIoPacket(one)).toEqual(socketIoPacket(full));
          return;
        }
        if (!one.error && one.root >= 0) expect(one.value(one.root)).toEqual(two.value(two.root));
        expandEverything(one);
        expandEverything(two);
        expect(snapshot(one)).toEqual(snapshot(two));
      }),
      { numRuns: 3000 },
    );
  });

  it('on the hand-picked edges: errors at the payload start, in the prefix, past the end', () => {
    const cases = [
      '4',
      '42',
      '42[',
      '42["',
      '42["a",',
      '42[1,2',
      '451-',
      '45x-[]',
      '451-/admin',
      '451-/admin,',
      '42/admin,7["ev"]',
      '0{"sid"',
      '2probe',
      '4hello',
      '40',
      '41',
      '42"x"',
      '43 []',
      '42[]]',
      '42["ev",{"a":1,"a":2}]',
      '42[[1],"ab',
      '451-/a,1[[1],"',
      '42[{"k":[2]},{"a":"x"} x',
      ...FAST_PATH_EDGES,
    ];
    for (const c of cases) {
      for (const d of [0, 1, 2, Infinity]) {
        const bytes = utf8(c);
        const one = new SpanIndex(bytes, socketIoWalker, { depth: d });
        const two = new SpanIndex(bytes, twoWalkSocketIoWalker, { depth: d });
        expect({ c, d, ...(snapshot(one) as object) }).toEqual({ c, d, ...(snapshot(two) as object) });
        expect(socketIoPacket(one)).toEqual(twoWalkPacket(two));
        // Expanded lazily: the nodes dropped after the error leave nothing behind.
        if (d === 0) continue;
        expandEverything(one);
        expandEverything(two);
        expect({ c, d, ...(snapshot(one) as object) }).toEqual({ c, d, ...(snapshot(two) as object) });
      }
    }
  });
});
