import { describe, expect, test } from 'vitest';
import { forbidFunctionPerTest } from '../../test/helpers/forbid-function.js';
import { runSessionComparison, type SessionMessage } from '../session/session.js';

/**
 * Extension pages' CSP forbids generating code (avsc compiled its record types with
 * `new Function`, so the Avro row ran in the CLI only): the session comparison's Avro row —
 * inference, encoding, decoding — must run with the global `Function` forbidden.
 */
const { forbid } = forbidFunctionPerTest();

const utf8 = new TextEncoder();
const messages: SessionMessage[] = Array.from({ length: 12 }, (_, i) => ({
  connectionId: 'c',
  direction: i % 3 ? 'server-to-client' : 'client-to-server',
  opcode: 1,
  data: utf8.encode(
    JSON.stringify({
      type: 'trade',
      id: i,
      price: 10 + i / 4,
      tags: ['a', 'b'].slice(0, i % 3),
      ...(i % 4 ? {} : { note: `n${i}` }),
    }),
  ),
}));

describe('Avro generates no code', () => {
  test('a session comparison with the Avro row runs with Function forbidden', async () => {
    const calls = forbid();
    const rows = await runSessionComparison(messages, { codecs: ['avro'] });
    const total = rows.find((r) => r.codec === 'avro' && r.connectionId === null)!;
    expect(calls).toEqual([]);
    expect(total.messages).toBe(messages.length);
    expect(total.left).toBe(0);
    expect(total.size).toBeGreaterThan(0);
    expect(JSON.parse(total.schema!.text).type).toBe('record');
  });
});
