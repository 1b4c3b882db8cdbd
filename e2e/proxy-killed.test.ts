/**
 * `wirescope proxy --record`, killed with SIGKILL mid-traffic: the file it leaves imports
 * with every frame up to the last complete line, and says where it was cut if it was.
 * Needs npm run build:cli.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { importCaptureFile } from '../inspector-app/src/state/import-file.js';
import { startProxyProcess } from './support/proxy-process.js';
import { startUpstreams } from './support/proxy-upstreams.js';

describe('a killed wirescope proxy', () => {
  it('leaves a recording that imports up to its last complete frame', async () => {
    const upstreams = await startUpstreams();
    const record = path.join(mkdtempSync(path.join(tmpdir(), 'wirescope-killed-')), 'killed.wirescope');
    const proxy = await startProxyProcess(['--target', upstreams.url, '--record', record]);
    const client = new WebSocket(`${proxy.ws}raw`);
    await new Promise((resolve) => client.once('open', resolve));
    let echoed = 0;
    client.on('message', () => echoed++);
    for (let i = 0; i < 200; i++) client.send(`message ${i} ${'x'.repeat(i * 50)}`);
    while (echoed < 200) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the recorder's 50 ms batching
    client.send(Buffer.alloc(4 << 20, 1)); // a 4 MiB frame: the kill may land while it is written
    await new Promise((resolve) => setTimeout(resolve, 30));
    await proxy.stop('SIGKILL');
    client.terminate();
    await upstreams.close();
    const imported = importCaptureFile(new Uint8Array(readFileSync(record)));
    if ('error' in imported) throw new Error(imported.error);
    expect(imported.connections).toHaveLength(1);
    const texts = (direction: string) =>
      imported.frames
        .filter((f) => f.opcode === 'text' && f.direction === direction)
        .map((f) => new TextDecoder().decode(f.data));
    const sent = Array.from({ length: 200 }, (_, i) => `message ${i} ${'x'.repeat(i * 50)}`);
    expect(texts('sent')).toEqual(sent);
    expect(texts('received')).toEqual(sent);
    // Whatever came after is whole frames, or one error naming where the file was cut.
    expect(imported.errors.length).toBeLessThanOrEqual(1);
    for (const e of imported.errors) expect(e).toMatch(/ends inside a line at byte \d+ \(cut short\)/);
  });
});
