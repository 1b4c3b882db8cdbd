/**
 * `npm start`: the demo server on $PORT or 8080 (an ephemeral port when that one is taken),
 * serving the built app from dist/app, until SIGINT / SIGTERM.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer, type DemoServer, type DemoServerOptions } from './server.js';
import { startupLines } from './startup-lines.js';

const DEFAULT_PORT = 8080;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const staticDir = path.join(repoRoot, 'dist', 'app');

function requestedPort(): number {
  const fromEnv = process.env.PORT;
  if (fromEnv === undefined || fromEnv === '') return DEFAULT_PORT;
  const port = Number(fromEnv);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`wirescope demo: PORT=${fromEnv} is not a port number`);
    process.exit(2);
  }
  return port;
}

async function start(options: DemoServerOptions): Promise<DemoServer> {
  try {
    return await startDemoServer(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port === 0) throw error;
    console.warn(`wirescope demo: port ${options.port} is in use, using a free port instead`);
    return startDemoServer({ ...options, port: 0 });
  }
}

async function main(): Promise<void> {
  const appBuilt = existsSync(path.join(staticDir, 'index.html'));
  if (!appBuilt)
    console.warn(
      `wirescope demo: ${path.relative(process.cwd(), staticDir) || staticDir} has no index.html — run npm run build:app (the demo WebSocket server still runs)`,
    );

  const server = await start({ port: requestedPort(), staticDir: appBuilt ? staticDir : undefined });
  // Printed with "localhost" (the page and the socket share an origin that way); the server listens on 127.0.0.1.
  const origin = `localhost:${server.port}`;
  for (const line of startupLines(origin)) console.log(line);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130); // a second Ctrl+C: do not wait any longer
    stopping = true;
    console.log(`\nwirescope demo: ${signal}, closing`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('wirescope demo:', error instanceof Error ? error.message : error);
  process.exit(1);
});
