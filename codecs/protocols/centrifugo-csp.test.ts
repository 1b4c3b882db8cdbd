import { expect, test } from 'vitest';
import { forbidFunctionPerTest } from '../test/helpers/forbid-function.js';

/**
 * MV3's CSP forbids generating code (protobufjs' encoders do): loading the built-in Centrifugo
 * schema, walking, values, previews and the protocol row must use only its parser and
 * reflection. The module is imported with `Function` already forbidden, so its first load is
 * covered too.
 */
const { forbid } = forbidFunctionPerTest();

test('Centrifugo Protobuf reading generates no code', async () => {
  const calls = forbid();
  const { readCentrifugoProtobuf, centrifugoMessages } = await import('./centrifugo-protobuf.js');
  const { recognizeProtocol } = await import('./recognize.js');
  // Command {id: 1, subscribe: {channel: "news"}}, length-delimited: 0a | 08 01 | 2a 06 0a 04 "news".
  const frame = new Uint8Array([0x0a, 0x08, 0x01, 0x2a, 0x06, 0x0a, 0x04, 0x6e, 0x65, 0x77, 0x73]);
  const index = readCentrifugoProtobuf(frame, { direction: 'sent' });
  expect(index.error).toBeNull();
  expect(index.value(0)).toEqual([{ id: 1, subscribe: { channel: 'news' } }]);
  for (let id = 0; id < index.store.size; id++) index.walker.preview!(index, id, 80);
  expect(centrifugoMessages(index).map((m) => m.method)).toEqual(['subscribe']);
  expect(recognizeProtocol(index, 'protobuf')).toMatchObject({
    protocol: 'centrifugo',
    message: 'subscribe',
    event: 'news',
    id: '1',
  });
  expect(calls).toEqual([]);
});
