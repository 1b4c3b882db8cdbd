/**
 * Real client libraries of framing protocols in Chromium with the extension (dist/chrome):
 * SignalR (JSON and MessagePack hub protocols), SockJS, Pusher, Action Cable and Yjs over
 * y-websocket, each against a protocol-exact server (or its own) from support/protocol-servers.ts.
 * For each: the library's round trips give the right answers; the panel lists exactly the frames
 * the server recorded (direction, text/binary, size, in order per direction), every one decoded
 * (no unknown, no ✕) and named as the protocol; and the CLI, given those frames as a capture file,
 * names the same protocol for every frame and reports none malformed.
 * Needs /usr/bin/chromium, a buildable extension and dist/cli/wirescope.js (npm run build:cli);
 * fails, never skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPagesOf } from './support/client-servers.js';
import { fromWire, frameLine, perDirection, runPageThenReadPanel } from './support/client-panel.js';
import type { PanelRow } from './support/ext-panel.js';
import { REPO } from './support/ext-env.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';
import {
  bundleProtocolClients,
  captureOfServer,
  startActionCable,
  startPusher,
  startSignalR,
  startSockJs,
  startYjs,
  type ProtocolServer,
} from './support/protocol-servers.js';

const CLI = path.join(REPO, 'bin/wirescope.js'); // loads dist/cli/wirescope.js
let tmp: string;

// Registered before the launch's beforeAll, so a missing CLI fails the file before a browser starts.
beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist/cli/wirescope.js')))
    throw new Error('e2e: no dist/cli/wirescope.js; run npm run build:cli');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'wirescope-protocols-'));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const run = chromiumAndServerPerFile(() => clientPagesOf<ProtocolServer>(bundleProtocolClients), 60_000);

const describeRow = (r: PanelRow) =>
  `${r.direction} ${frameLine(r)} [${r.formatText}] [${r.protocol}] [${r.event}] ${r.preview.slice(0, 60)}`;

interface CliLine {
  readonly direction: string;
  readonly opcode: string;
  readonly bytes: number;
  readonly format: string | null;
  readonly verdict: string;
  readonly protocol: { readonly protocol: string; readonly message: string } | null;
  readonly error: unknown;
}

/** `wirescope inspect --session` on the server's record of the wire, written as a capture file. */
function inspectWithCli(server: ProtocolServer, name: string): { status: number | null; lines: CliLine[] } {
  const file = path.join(tmp, `${name}.wirescope`);
  writeFileSync(file, captureOfServer(server));
  const run = spawnSync(process.execPath, [CLI, 'inspect', '--session', file, '--json'], { encoding: 'utf8' });
  if (run.stderr) throw new Error(`wirescope inspect --session: ${run.stderr}`);
  const lines = run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CliLine);
  return { status: run.status, lines };
}

/**
 * Runs the library page, holds the panel to the server's record of the wire, and checks that
 * the panel and the CLI read every frame as `protocol`.
 */
async function check(
  name: string,
  server: ProtocolServer,
  protocol: string,
  expectResult: (result: unknown) => void,
): Promise<PanelRow[]> {
  run.server.keep(server);
  const { result, state, errors } = await runPageThenReadPanel(run.browser, server);
  expectResult(result);
  const shown = state.rows.map(describeRow).join('\n');
  expect(server.frames.length, 'frames on the wire').toBeGreaterThan(3);
  expect(new Set(server.frames.map((f) => f.direction)), 'both directions carry frames').toEqual(
    new Set(['sent', 'received']),
  );
  expect(perDirection(state.rows), shown).toEqual(fromWire(server.frames));
  expect(state.dropped).toBeNull();
  // Every frame decoded and named as the protocol.
  const misread = state.rows.filter(
    (r) => r.format === 'unknown' || r.formatText.includes('✕') || r.protocol !== protocol,
  );
  expect(misread.map(describeRow), shown).toEqual([]);
  expect(errors).toEqual([]);
  // The CLI on the same frames.
  const { status, lines: cli } = inspectWithCli(server, name);
  expect(cli.map((l) => `${l.direction} ${l.opcode} ${l.bytes}`)).toEqual(
    server.frames.map((f) => `${f.direction} ${f.opcode} ${f.size}`),
  );
  const cliMisread = cli.filter(
    (l) => l.verdict !== 'decoded' || l.error !== null || l.protocol?.protocol !== protocol,
  );
  expect(cliMisread.map((l) => JSON.stringify(l))).toEqual([]);
  expect(status, 'the CLI exit status (1: some frame malformed)').toBe(0);
  return state.rows;
}

describe('real clients of framing protocols in Chromium (dist/chrome) and the CLI', () => {
  it('SignalR, JSON hub protocol: handshake, invocations and completions, a ping, a server call, close', async () => {
    const rows = await check('signalr-json', await startSignalR(run.server.clientsJs, 'json'), 'signalr', (r) =>
      expect(r).toEqual({ echo: { echoed: ['hi ✓', 7] }, sum: 5, news: ['hello', 42] }),
    );
    expect(rows.every((r) => r.opcode === 'text')).toBe(true);
  }, 60_000);

  it('SignalR, MessagePack hub protocol: length-prefixed binary records after the JSON handshake', async () => {
    const rows = await check(
      'signalr-msgpack',
      await startSignalR(run.server.clientsJs, 'messagepack'),
      'signalr',
      (r) => expect(r).toEqual({ echo: { echoed: ['hi ✓', 7] }, sum: 5, news: ['hello', 42] }),
    );
    expect(rows.filter((r) => r.opcode === 'binary').length).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it('SockJS: sockjs-client over its WebSocket transport against the sockjs server, echoes and a close frame', async () => {
    const rows = await check('sockjs', await startSockJs(run.server.clientsJs), 'sockjs', (r) =>
      expect(r).toEqual({
        transport: 'websocket',
        echoes: ['hello ✓', '{"room":"lobby","n":1}'],
        closed: [3000, 'Go away!'],
      }),
    );
    expect(rows.map((r) => r.event).filter((e) => e.includes('3000'))).toHaveLength(1);
  }, 60_000);

  it('Pusher: pusher-js connects, subscribes, pings after its activity timeout and gets a channel event', async () => {
    const rows = await check('pusher', await startPusher(run.server.clientsJs), 'pusher', (r) =>
      expect(r).toEqual({ subscribed: true, socketId: '1234.5678', news: { text: 'hello ✓', n: 1 } }),
    );
    expect(rows.map((r) => r.event)).toEqual(
      expect.arrayContaining([
        'pusher:connection_established',
        'room-1 pusher:subscribe',
        'room-1 pusher_internal:subscription_succeeded',
        'pusher:ping',
        'pusher:pong',
        'room-1 news',
      ]),
    );
  }, 60_000);

  it('Action Cable: @rails/actioncable over actioncable-v1-json, subscribe, perform and a broadcast back', async () => {
    const rows = await check('actioncable', await startActionCable(run.server.clientsJs), 'actioncable', (r) =>
      expect(r).toEqual({
        protocol: 'actioncable-v1-json',
        received: { text: 'hi ✓', action: 'speak', from: 'server' },
      }),
    );
    expect(rows.filter((r) => r.direction === 'sent').length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.event === 'ChatChannel room=lobby').length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('Yjs over y-websocket: sync steps, an update each way, awareness', async () => {
    const rows = await check('yjs', await startYjs(run.server.clientsJs), 'yjs', (r) =>
      expect(r).toEqual({ initial: 'world', final: 'hello world ✓', users: ['ann', 'server'] }),
    );
    expect(rows.every((r) => r.opcode === 'binary')).toBe(true);
  }, 60_000);
});
