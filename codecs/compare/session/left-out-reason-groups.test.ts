/**
 * Left-out messages whose reasons differ only in the values, numbers or
 * offsets they quote are one group (the first message's full text, the count), in every view
 * (left-out.ts: the inspector's list, the report, the CLI's notes). Avro listed 16 entries,
 * one per bigint value; the CLI split undecodable frames on the byte each reader stopped at.
 */
import { describe, expect, it } from 'vitest';
import { countLeftOut, leftOutText, mergeLeftOut, reasonKey, type LeftOutGroup } from './left-out.js';
import { formatSessionText } from './format.js';
import { totalRow, type SessionRow } from './session.js';

const AVRO = [
  [14, 'ledgerSeq: bigint 9007199254852078 where the schema has "double"'],
  [20, 'ledgerSeq: bigint 9007199255258938 where the schema has "double"'],
  [24, 'ledgerSeq: bigint 9007199255593024 where the schema has "double"'],
  [40, '2: bigint 4649017164979219988 where the schema has "double"'],
  [44, '2: bigint 4648202118999782195 where the schema has "double"'],
] as const;

const noFormat = (readings: string): string =>
  `the frame does not decode: no format reads the whole frame (${readings})`;
const UNDECODABLE = [
  [
    31,
    noFormat('crdt-patch stops at byte 5; cbor stops at byte 3; msgpack stops at byte 1; crdt-model stops at byte 0'),
  ],
  [
    103,
    noFormat('crdt-patch stops at byte 8; cbor stops at byte 3; msgpack stops at byte 1; crdt-model stops at byte 0'),
  ],
  [
    119,
    noFormat('crdt-patch stops at byte 7; cbor stops at byte 3; msgpack stops at byte 1; crdt-model stops at byte 0'),
  ],
  // Readings are ordered furthest first: another offset, another order.
  [
    135,
    noFormat('cbor stops at byte 3; msgpack stops at byte 1; crdt-patch stops at byte 1; crdt-model stops at byte 0'),
  ],
  [138, 'the frame does not decode: text string declares 22 bytes but only 14 remain at byte 64'],
  [146, 'the frame does not decode: reserved additional information 28 in initial byte 0x1c at byte 47'],
] as const;

function grouped(list: readonly (readonly [number, string])[]): LeftOutGroup[] {
  const groups = new Map<string, { reason: string; count: number; first: number }>();
  for (const [message, reason] of list) countLeftOut(groups, reason, message);
  return [...groups.values()];
}

/** A total row (session.ts's sums of no rows) with these groups. */
const row = (leftReasons: LeftOutGroup[], connectionId: string | null = null): SessionRow => ({
  ...totalRow('avro', null, []),
  label: 'Avro (inferred)',
  connectionId,
  left: leftReasons.reduce((n, g) => n + g.count, 0),
  leftReasons,
});

describe('left-out reasons grouped by what they say, not the values they quote', () => {
  it('the Avro bigints: one group per field, shown with the first message and the count', () => {
    expect(leftOutText(row(grouped(AVRO)))).toBe(
      '3 messages (first: 14): ledgerSeq: bigint 9007199254852078 where the schema has "double"; 2 messages (first: 40): 2: bigint 4649017164979219988 where the schema has "double"',
    );
  });

  it('undecodable frames: one group whatever byte each reader stopped at; different errors stay apart', () => {
    expect(leftOutText(row(grouped(UNDECODABLE)))).toBe(
      `4 messages (first: 31): ${UNDECODABLE[0][1]}; message 138: ${UNDECODABLE[4][1]}; message 146: ${UNDECODABLE[5][1]}`,
    );
  });

  it('types named with digits are not values: int32 and int64 stay apart; quoted schema types too', () => {
    expect(reasonKey('seq: int32 where the schema has string')).not.toBe(
      reasonKey('seq: int64 where the schema has string'),
    );
    expect(reasonKey('v: bigint 1 where the schema has "double"')).not.toBe(
      reasonKey('v: bigint 1 where the schema has "int"'),
    );
    expect(reasonKey('ops[5].value: bool where the schema has string')).toBe(
      reasonKey('ops[12].value: bool where the schema has string'),
    );
    expect(reasonKey('a: number -1.5e+300 where the schema has "int"')).toBe(
      reasonKey('a: number 7 where the schema has "int"'),
    );
  });

  it('groups made per connection by exact text merge in the total; the earliest message gives the text', () => {
    const a = row([{ reason: AVRO[1][1], count: 4, first: 20 }], 'a');
    const b = row([{ reason: AVRO[0][1], count: 2, first: 14 }], 'b');
    expect(mergeLeftOut([a, b])).toEqual([{ reason: AVRO[0][1], count: 6, first: 14 }]);
    // A row whose groups were made by exact text (another build) is regrouped where it is shown.
    expect(
      leftOutText(
        row([
          { reason: AVRO[1][1], count: 1, first: 20 },
          { reason: AVRO[0][1], count: 1, first: 14 },
        ]),
      ),
    ).toBe(`2 messages (first: 14): ${AVRO[0][1]}`);
  });

  it("the CLI's notes read the same groups", () => {
    const total = row(grouped([...AVRO, ...UNDECODABLE]));
    const text = formatSessionText([total], 't');
    expect(text).toContain(
      'Avro (inferred): 11 message(s) the codec cannot hold: 3 messages (first: 14): ledgerSeq: bigint 9007199254852078',
    );
    expect(text).toContain(
      '4 messages (first: 31): the frame does not decode: no format reads the whole frame (crdt-patch stops at byte 5;',
    );
    expect(text).not.toContain('message 103');
  });
});
