/**
 * An MQTT 3.1.1 session as mqtt.js in Node writes it — each part of a packet its own
 * WebSocket message — against an in-process aedes broker, recorded by the proxy.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { captureProxy, until, type CapturedFrame } from './ws-capture.js';

export async function nodeMqttSession(): Promise<CapturedFrame[]> {
  const aedes = await Aedes.createBroker();
  const server = http.createServer();
  const wss = new WebSocketServer({
    server,
    perMessageDeflate: false,
    handleProtocols: (offered) => offered.values().next().value ?? false,
  });
  wss.on('connection', (socket, request) => aedes.handle(createWebSocketStream(socket) as never, request));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const capture = await captureProxy(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const client = await mqtt.connectAsync(`${capture.url}/mqtt`, {
      protocolVersion: 4,
      clientId: 'wirescope-split',
      keepalive: 30,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync({ 'sensors/#': { qos: 1 } });
    const got = new Promise<void>((resolve) => {
      let n = 0;
      client.on('message', () => ++n === 2 && resolve());
    });
    await client.publishAsync('sensors/kitchen/temp', JSON.stringify({ celsius: 21.5, note: 'x'.repeat(300) }), {
      qos: 1,
    });
    await client.publishAsync('sensors/attic/temp', 'warm', { qos: 0 });
    await got;
    await client.endAsync();
    await until(() => capture.frames.some((f) => f.direction === 'sent' && f.data[0] === 0xe0));
    return capture.frames.slice();
  } finally {
    await capture.close();
    for (const c of wss.clients) c.terminate();
    wss.close();
    server.closeAllConnections();
    await new Promise<void>((r) => aedes.close(() => r()));
  }
}
