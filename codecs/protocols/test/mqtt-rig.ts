import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { createWebSocketStream } from 'ws';
import { captureProxy, until, type CapturedFrame } from './ws-capture.js';
import { firstOffered, localWsServer } from './ws-server.js';

export async function nodeMqttSession(): Promise<CapturedFrame[]> {
  const aedes = await Aedes.createBroker();
  const server = await localWsServer(
    { handleProtocols: firstOffered },
    () => new Promise<void>((r) => aedes.close(() => r())),
  );
  server.wss.on('connection', (socket, request) => aedes.handle(createWebSocketStream(socket) as never, request));
  const capture = await captureProxy(server.url);
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
    await server.close();
  }
}
