/**
 * `wirescope run`: a Node app using `ws` (client and server) and one using the global
 * WebSocket run unchanged (same output, same exit status) and every message both ways is
 * recorded, bytes exact; with --proxy the running proxy receives them live.
 * Needs npm run build:cli (dist/cli/wirescope.js and dist/cli/hook.js).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCapture } from '../codecs/capture/capture-file.js';
import { REPO } from './support/env.js';
import { startProxyProcess } from './support/proxy-process.js';
import { startUpstreams } from './support/proxy-upstreams.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wirescope-run-'));
const app = (name: string) => path.join(REPO, 'e2e/fixtures/run', name);
const wirescope = path.join(REPO, 'bin/wirescope.js');
const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
const node = (...args: string[]) => run(args);
const hooked = (record: string, ...args: string[]) =>
  run([wirescope, 'run', '--record', record, '--', process.execPath, ...args]);
const hexes = (frames: { direction: string; opcode: string; data: Uint8Array }[], direction: string) =>
  frames.filter((f) => f.direction === direction).map((f) => `${f.opcode} ${Buffer.from(f.data).toString('hex')}`);
const hex = (text: string | Buffer) => Buffer.from(text).toString('hex');

describe('wirescope run', () => {
  it('records every message of a ws client and server; the app prints the same and exits the same', () => {
    const plain = node(app('ws-app.mjs'));
    const record = path.join(dir, 'ws.wirescope');
    const withHook = hooked(record, app('ws-app.mjs'));
    expect(plain.status).toBe(0);
    expect(withHook.status).toBe(0);
    expect(withHook.stdout).toBe(plain.stdout);
    expect(withHook.stderr).toBe(plain.stderr);
    const capture = parseCapture(readFileSync(record));
    expect(capture.errors).toEqual([]);
    const client = capture.connections.find((c) => c.url.endsWith('/app?v=1'))!;
    const server = capture.connections.find((c) => c.url.endsWith('/app?v=1 (server side)'))!;
    expect(client.protocol).toBe('chat.v1');
    expect(server.protocol).toBe('chat.v1');
    const sentByClient = [
      `text ${hex('hello ✓')}`,
      'binary 010203',
      `binary ${'5a'.repeat(200_000)}`,
      `text ${hex('part-two')}`,
      `text ${hex('last')}`,
    ];
    const clientFrames = capture.frames.filter((f) => f.connectionId === client.connectionId);
    const serverFrames = capture.frames.filter((f) => f.connectionId === server.connectionId);
    expect(hexes(clientFrames, 'sent')).toEqual(sentByClient);
    expect(hexes(clientFrames, 'received')).toEqual([...sentByClient, 'binary dead']);
    // The server's socket, from its own side: it received what the client sent and sent the echoes.
    expect(hexes(serverFrames, 'received')).toEqual(sentByClient);
    expect(hexes(serverFrames, 'sent')).toEqual([...sentByClient, 'binary dead']);
  });

  it("records the global WebSocket's messages (Node 20 --experimental-websocket); the app prints the same", () => {
    const plain = node('--experimental-websocket', app('global-app.mjs'));
    const record = path.join(dir, 'global.wirescope');
    const withHook = hooked(record, '--experimental-websocket', app('global-app.mjs'));
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('close 4000 bye');
    expect(withHook.status).toBe(0);
    expect(withHook.stdout).toBe(plain.stdout);
    expect(withHook.stderr).toBe(plain.stderr);
    const capture = parseCapture(readFileSync(record));
    expect(capture.errors).toEqual([]);
    const client = capture.connections.find((c) => c.url.endsWith('/global'))!;
    const frames = capture.frames.filter((f) => f.connectionId === client.connectionId);
    const sent = [`text ${hex('hi from undici')}`, 'binary 090807', `binary ${'03'.repeat(70_000)}`];
    expect(hexes(frames, 'sent')).toEqual(sent);
    expect(hexes(frames, 'received')).toEqual(sent);
  });

  it('passes the exit status through and exits 2 with one line for a missing command', () => {
    const failing = run([
      wirescope,
      'run',
      '--record',
      path.join(dir, 'x.wirescope'),
      '--',
      process.execPath,
      '-e',
      'process.exit(7)',
    ]);
    expect(failing.status).toBe(7);
    const bad = run([wirescope, 'run', '--record', 'x']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('streams the hooked process to a running proxy (--proxy), which records it', async () => {
    const upstreams = await startUpstreams();
    const record = path.join(dir, 'via-proxy.wirescope');
    const proxy = await startProxyProcess(['--target', upstreams.url, '--record', record]);
    try {
      const result = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [wirescope, 'run', '--proxy', proxy.http, '--', process.execPath, app('ws-app.mjs')],
          {
            cwd: REPO,
          },
        );
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.on('exit', (status) => resolve({ status, stdout }));
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('close 1000 done');
    } finally {
      await proxy.stop();
      await upstreams.close();
    }
    const capture = parseCapture(readFileSync(record));
    expect(capture.errors).toEqual([]);
    const client = capture.connections.find((c) => c.url.endsWith('/app?v=1'))!;
    expect(client).toBeDefined();
    expect(
      hexes(
        capture.frames.filter((f) => f.connectionId === client.connectionId),
        'sent',
      ),
    ).toHaveLength(5);
  });

  it('--proxy delivers every message of an app that exits right after sending', async () => {
    const upstreams = await startUpstreams();
    const record = path.join(dir, 'exit-right-away.wirescope');
    const proxy = await startProxyProcess(['--target', upstreams.url, '--record', record]);
    let result: { status: number | null; stdout: string };
    try {
      result = await new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [wirescope, 'run', '--proxy', proxy.http, '--', process.execPath, app('exit-right-away.mjs')],
          { cwd: REPO },
        );
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.on('exit', (status) => resolve({ status, stdout }));
      });
    } finally {
      await proxy.stop();
      await upstreams.close();
    }
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('sent 300\n');
    const capture = parseCapture(readFileSync(record));
    expect(capture.errors).toEqual([]);
    const client = capture.connections.find((c) => c.url.endsWith('/bye'))!;
    expect(client).toBeDefined();
    const sent = capture.frames.filter((f) => f.connectionId === client.connectionId && f.direction === 'sent');
    const expected = Array.from({ length: 300 }, (_, i) =>
      i % 2 ? `binary ${Buffer.alloc(100_000 + i, i & 255).toString('hex')}` : `text ${hex(`message ${i}`)}`,
    );
    expect(hexes(sent, 'sent')).toEqual(expected);
  });

  it('a process ended by a signal it does not handle still records every message, and ends by that signal', () => {
    const record = path.join(dir, 'signal.wirescope');
    const plain = node(app('killed-by-signal.mjs'));
    const withHook = hooked(record, app('killed-by-signal.mjs'));
    expect(plain.signal ?? plain.status).toBe('SIGTERM');
    expect(withHook.status).toBe(plain.status ?? 128 + 15);
    expect(withHook.stdout).toBe(plain.stdout);
    const capture = parseCapture(readFileSync(record));
    expect(capture.errors).toEqual([]);
    const client = capture.connections.find((c) => c.url.endsWith('/signal'))!;
    const sent = capture.frames.filter((f) => f.connectionId === client.connectionId && f.direction === 'sent');
    expect(hexes(sent, 'sent')).toEqual(Array.from({ length: 50 }, (_, i) => `text ${hex(`message ${i}`)}`));
  });

  it('passes a signal sent to wirescope alone on to the app, ends with it, and keeps every message', async () => {
    for (const [signal, number] of [
      ['SIGTERM', 15],
      ['SIGINT', 2],
    ] as const) {
      const record = path.join(dir, `until-${signal}.wirescope`);
      const child = spawn(
        process.execPath,
        [wirescope, 'run', '--record', record, '--', process.execPath, app('runs-until-stopped.mjs')],
        { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the app never said it sent: ${out}`)), 20_000);
        child.stdout.on('data', () => {
          if (out.includes('sent 20')) clearTimeout(timer), resolve();
        });
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal); // wirescope's pid only, as `kill <pid>` does
      expect(await exited, `wirescope ends with the app, by ${signal}`).toBe(128 + number);
      const capture = parseCapture(readFileSync(record));
      expect(capture.errors).toEqual([]);
      const client = capture.connections.find((c) => c.url.endsWith('/until-stopped'))!;
      const sent = capture.frames.filter((f) => f.connectionId === client.connectionId && f.direction === 'sent');
      expect(sent).toHaveLength(20);
    }
  }, 60_000);
});
