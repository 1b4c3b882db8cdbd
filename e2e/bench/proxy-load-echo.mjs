// The load bench's upstream: a ws echo server on PORT (0: any), printing its port.
import { WebSocketServer } from 'ws';

const server = new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0), perMessageDeflate: false });
server.on('connection', (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
server.on('listening', () => console.log(`port ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
