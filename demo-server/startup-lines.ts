import { DEMO_PATH } from './server.js';
import { PROTOBUF_PATH } from './streams/protobuf-schema.js';
import { NESTED_PATH } from './streams/nested.js';

/**
 * What `npm start` prints once it listens (main.ts), `origin` being `localhost:PORT`; the
 * README shows these lines for port 8080 (codecs/readme-examples.test.ts keeps them equal).
 */
export function startupLines(origin: string): string[] {
  const wsUrl = `ws://${origin}${DEMO_PATH}`;
  return [
    `wirescope web inspector: http://${origin}/?connect=${encodeURIComponent(wsUrl)}`,
    `paste-and-decode:        http://${origin}/paste.html`,
    `demo WebSocket server:   ${wsUrl}`,
    `protobuf with a schema:  http://${origin}/?connect=${encodeURIComponent(`ws://${origin}${PROTOBUF_PATH}`)} (schema: http://${origin}${PROTOBUF_PATH}/envelope.proto, trade.proto)`,
    `nested and compressed:   http://${origin}/?connect=${encodeURIComponent(`ws://${origin}${NESTED_PATH}`)}`,
    '(Ctrl+C to stop)',
  ];
}
