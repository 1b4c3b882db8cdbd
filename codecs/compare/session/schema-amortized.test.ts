import { describe, expect, it } from 'vitest';
import { runSessionComparison, type SessionMessage } from './session.js';
import { formatSessionText } from './format.js';

const utf8 = new TextEncoder();
const msg = (value: unknown): SessionMessage => ({
  connectionId: 'a',
  direction: 'server-to-client',
  opcode: 1,
  data: utf8.encode(JSON.stringify(value)),
});

// "18 message(s) left out", then "amortized over 88 messages" although
// only 70 were encoded: the schema's size is spread over the messages the schema encoded.
describe('a schema codec amortizes its schema over the messages it encoded', () => {
  it('left-out messages do not count, and the text says "the N messages it encoded"', async () => {
    const messages: SessionMessage[] = [];
    for (let i = 0; i < 7; i++) messages.push(msg({ id: i, name: `n${i}` }));
    // Protobuf cannot hold these: a frame that is not an object, a string where numbers were.
    messages.push(msg([1, 2]), msg({ id: 'x', name: 'y' }), msg([3]));
    const rows = await runSessionComparison(messages, { codecs: ['protobuf'] });
    const total = rows.find((r) => r.codec === 'protobuf' && r.connectionId === null)!;
    expect(total.left).toBe(3);
    expect(total.messages).toBe(7);
    expect(total.schema!.messages).toBe(7);
    expect(total.schema!.perMessage).toBeCloseTo(total.schema!.bytes / 7);
    const text = formatSessionText(rows, 't');
    expect(text).toContain('Protobuf (inferred): 3 message(s) left out');
    expect(text).toMatch(
      new RegExp(
        `Protobuf \\(inferred\\): schema ${total.schema!.bytes} bytes, sent once — amortized over the 7 messages it encoded \\(3 left out\\), ${(total.schema!.bytes / 7).toFixed(1)} bytes/message`,
      ),
    );
  });

  it('with every message encoded the note names no left-out messages', async () => {
    const rows = await runSessionComparison([msg({ id: 1 }), msg({ id: 2 })], { codecs: ['protobuf'] });
    const text = formatSessionText(rows, 't');
    expect(text).toMatch(/amortized over the 2 messages it encoded, [\d.]+ bytes\/message/);
  });
});
