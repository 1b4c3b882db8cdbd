// The app the hook bench runs, hooked or not: a ws server and client in one process; the
// client sends COUNT messages of SIZE bytes, the server counts them. Prints this process's
// CPU time (process.cpuUsage: user + system) and wall time from the first send to exit,
// so a hooked run includes the hook's final write of its file.
import { WebSocket, WebSocketServer } from 'ws';

const count = Number(process.argv[2] ?? 20000);
const size = Number(process.argv[3] ?? 1024);
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
await new Promise((resolve) => server.once('listening', resolve));
const payload = Buffer.alloc(size);
for (let i = 0; i < size; i++) payload[i] = (i * 13) & 255;
let received = 0;
server.on('connection', (socket) =>
  socket.on('message', () => {
    if (++received === count) socket.close();
  }),
);
const client = new WebSocket(`ws://127.0.0.1:${server.address().port}/bench`, { perMessageDeflate: false });
await new Promise((resolve) => client.once('open', resolve));
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
process.on('exit', () => {
  const cpu = process.cpuUsage(cpu0);
  const result = { cpuUs: cpu.user + cpu.system, wallMs: performance.now() - wall0, count, size };
  process.stdout.write(`${JSON.stringify(result)}\n`);
});
// Batches of 64 sends; the next batch starts when the last one's bytes are written (no busy wait).
let sent = 0;
const batch = () => {
  const end = Math.min(count, sent + 64);
  while (sent < end - 1) {
    client.send(payload);
    sent++;
  }
  if (sent < count) {
    sent++;
    client.send(payload, sent < count ? batch : undefined);
  }
};
batch();
client.on('close', () => server.close());
