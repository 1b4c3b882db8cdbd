import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import fc from 'fast-check';
import { decodeFrame } from '../index.js';
import { fieldCosts } from './field-cost.js';
import { Model } from 'json-joy/lib/json-crdt/index.js';
import { hex } from '../test/helpers/hex.js';

function fullIndex(bytes: Uint8Array, format?: 'cbor' | 'msgpack' | 'json') {
  const d = decodeFrame(bytes, format ? { format } : {});
  const index = d.index!;
  index.expandAll(index.root);
  return index;
}

describe('cost by field across array elements', () => {
  // {"users": [{"id": 1, "avatarHash": "aaaa"}, {"id": 2, "avatarHash": "bbbbbb"}]}
  const users = {
    users: [
      { id: 1, avatarHash: 'aaaa' },
      { id: 2, avatarHash: 'bbbbbb' },
    ],
  };
  // Written out by hand: json-pack widens string heads, this is the shortest encoding.
  const bytes = hex(
    'a1 65 7573657273 82 a2 62 6964 01 6a 61766174617248617368 64 61616161 a2 62 6964 02 6a 61766174617248617368 66 626262626262',
  );

  it('groups array elements by path pattern, keys charged to their values', () => {
    const report = fieldCosts(fullIndex(bytes, 'cbor'));
    const byPattern = new Map(report.fields.map((f) => [f.pattern, f]));
    const hash = byPattern.get('$.users[*].avatarHash')!;
    // key "avatarHash": 1 + 10 bytes each; values: 1 + 4 and 1 + 6 bytes.
    expect(hash).toMatchObject({
      count: 2,
      keyBytes: 22,
      valueBytes: 12,
      totalBytes: 34,
      averageBytes: 17,
      isContainer: false,
      depth: 3,
    });
    expect(hash.share).toBeCloseTo(34 / bytes.length);
    expect(byPattern.get('$.users[*].id')).toMatchObject({ count: 2, keyBytes: 6, valueBytes: 2 });
    expect(byPattern.get('$.users[*]')).toMatchObject({ count: 2, keyBytes: 0, isContainer: true });
    expect(byPattern.get('$.users')).toMatchObject({ count: 1, keyBytes: 6, valueBytes: bytes.length - 7 });
    expect(report.patterns).toBe(4);
    expect(report.fields[0].pattern).toBe('$.users');
  });

  it('reads the same patterns in MessagePack and JSON', () => {
    for (const [b, f] of [
      [new MsgPackEncoder().encode(users), 'msgpack'],
      [new TextEncoder().encode(JSON.stringify(users)), 'json'],
    ] as const) {
      const report = fieldCosts(fullIndex(b, f));
      expect(report.fields.map((x) => x.pattern).sort()).toEqual([
        '$.users',
        '$.users[*]',
        '$.users[*].avatarHash',
        '$.users[*].id',
      ]);
      // JSON keys keep their quotes: "avatarHash" is 12 bytes.
      if (f === 'json') expect(report.fields.find((x) => x.pattern === '$.users[*].avatarHash')!.keyBytes).toBe(24);
    }
  });

  it('names odd keys the way paths do, and never counts inside keys', () => {
    // {"a b": 1, 7: [2], "t": 1(5)}
    const report = fieldCosts(fullIndex(hex('a3 63 612062 01 07 81 02 61 74 c1 05'), 'cbor'));
    expect(report.fields.map((f) => f.pattern).sort()).toEqual(['$.t', '$["a b"]', '${7}', '${7}[*]'].sort());
  });

  it('a tagged field is one row with its key, tag head and content (users[*].lastSeen), a leaf when its content is', () => {
    // [{"lastSeen": 1(1700000000), "m": 5({"x": 1})}, {"lastSeen": 1(1700000001), "m": 5({"x": 2})}] under self-describe 55799
    const user = (n: number) =>
      `a2 68 6c 61 73 74 53 65 65 6e c1 1a 6553f1${n.toString(16).padStart(2, '0')} 61 6d c5 a1 61 78 0${n + 1}`;
    const bytes = hex(`d9 d9 f7 82 ${user(0)} ${user(1)}`);
    const report = fieldCosts(fullIndex(bytes, 'cbor'));
    const patterns = report.fields.map((f) => f.pattern);
    expect(patterns.filter((p) => p.includes('<tag'))).toEqual([]);
    const lastSeen = report.fields.find((f) => f.pattern === '$[*].lastSeen')!;
    // Key "lastSeen" 9 bytes, tag head 1, uint32 5: 15 bytes a user.
    expect(lastSeen).toMatchObject({ count: 2, keyBytes: 18, valueBytes: 12, totalBytes: 30, isContainer: false });
    expect(report.fields.find((f) => f.pattern === '$[*].m')!.isContainer).toBe(true);
    expect(report.fields.find((f) => f.pattern === '$[*].m.x')!.count).toBe(2);
  });

  it('keeps the partial result of a malformed frame', () => {
    // [{"a": 1}, {"a": 2 — truncated
    const d = decodeFrame(hex('82 a1 61 61 01 a1 61 61'), { format: 'cbor' });
    d.index!.expandAll(d.index!.root);
    const report = fieldCosts(d.index!);
    expect(d.index!.error).not.toBeNull();
    expect(report.fields.find((f) => f.pattern === '$[*].a')!.count).toBeGreaterThanOrEqual(1);
  });

  it('leaves totals that never exceed the frame, and counts every recorded node once (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const b = new CborEncoder().encode(value);
        const index = fullIndex(b, 'cbor');
        const report = fieldCosts(index, { limit: Infinity });
        expect(report.fields.reduce((s, f) => s + f.count, 0)).toBe(report.nodes);
        // Patterns at one depth never overlap: their bytes add up to at most the frame.
        const byDepth = new Map<number, number>();
        for (const f of report.fields) byDepth.set(f.depth, (byDepth.get(f.depth) ?? 0) + f.totalBytes);
        for (const total of byDepth.values()) expect(total).toBeLessThanOrEqual(b.length);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the heaviest rows when capped', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 50; i++) many[`k${i}`] = i * 1000;
    const report = fieldCosts(fullIndex(new CborEncoder().encode(many), 'cbor'), { limit: 5 });
    expect(report.patterns).toBe(50);
    expect(report.fields).toHaveLength(5);
    expect(report.fields[0].totalBytes).toBeGreaterThanOrEqual(report.fields[4].totalBytes);
  });

  it('names json-joy parts the way their paths do: ops[*] by role, object keys, root', () => {
    const model = Model.create(undefined, 65537);
    model.api.set({ title: 'plan', todos: [] });
    model.api.flush();
    model.api.str(['title']).ins(4, ' B');
    model.api.arr(['todos']).ins(0, [{ text: 'x' }]);
    const patch = fieldCosts(fullIndex(model.api.flush().toBinary()));
    const patterns = patch.fields.map((f) => f.pattern);
    expect(patterns).toContain('$.ops[*]');
    expect(patterns).toContain('$.ops[*].obj');
    expect(patterns).toContain('$.ops[*].after');
    expect(patterns).toContain('$.ops[*].text');
    expect(patterns.filter((p) => p.includes('<chunk'))).toEqual([]);
    const snapshot = fieldCosts(fullIndex(model.toBinary())).fields.map((f) => f.pattern);
    expect(snapshot).toContain('$.root.title');
    expect(snapshot).toContain('$.root.todos');
  });

  it('sums everything below 64 levels into one row (100,000 nested arrays stay 65 patterns)', () => {
    const bytes = new Uint8Array(100_001).fill(0x81);
    bytes[100_000] = 0x01;
    const report = fieldCosts(fullIndex(bytes, 'cbor'), { limit: Infinity });
    expect(report.patterns).toBe(65);
    const deep = report.fields.find((f) => f.pattern.endsWith('…'))!;
    expect(deep.pattern).toBe('$' + '[*]'.repeat(64) + '…');
    // Every node below level 64 is counted there, once.
    expect(deep.count).toBe(100_001 - 1 - 64);
    expect(report.fields.reduce((s, f) => s + f.count, 0)).toBe(report.nodes);
  });
});
