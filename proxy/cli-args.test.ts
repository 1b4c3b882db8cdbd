import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseProxyArgs, parseRunArgs } from './cli-args.js';
import { proxyCommand, runCommand } from './commands.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

describe('wirescope proxy arguments', () => {
  it('reads the target, listen address, record file and --insecure', () => {
    expect(
      parseProxyArgs(['--target', 'wss://h:8443/p', '--listen=0.0.0.0:9100', '--record', 'a.wirescope', '--insecure']),
    ).toMatchObject({ host: '0.0.0.0', port: 9100, record: 'a.wirescope', insecure: true });
    expect(parseProxyArgs(['--target', 'ws://h'])).toMatchObject({ host: '127.0.0.1', port: 9000, record: null });
  });

  it.each([
    [[], /missing --target/],
    [['--target', 'http://h/'], /--target must be a ws:\/\/ or wss:\/\/ URL, not http:/],
    [['--target', 'nope'], /is not a URL/],
    [['--target', 'ws://h', '--listen', 'h:99999'], /is not host:port/],
    [['--target', 'ws://h', '--bogus'], /unknown argument: --bogus/],
  ])('exits 2 with one line for %j', async (argv, message) => {
    const r = io();
    expect(await proxyCommand(argv as string[], r.io)).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0].trimEnd().split('\n')).toHaveLength(1);
    expect(r.err[0]).toMatch(message);
    expect(r.out).toEqual([]);
  });

  it('exits 2 with one line when the port is in use', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    const r = io();
    expect(await proxyCommand(['--target', 'ws://127.0.0.1:1', '--listen', `127.0.0.1:${port}`], r.io)).toBe(2);
    expect(r.err).toEqual([`wirescope proxy: cannot listen on 127.0.0.1:${port}: the port is in use\n`]);
    await new Promise((resolve) => busy.close(resolve));
  });
});

describe('wirescope run arguments', () => {
  it('takes the command after --', () => {
    expect(parseRunArgs(['--record', 'o.wirescope', '--', 'node', 'app.js', '--record'])).toMatchObject({
      record: 'o.wirescope',
      proxy: null,
      argv: ['node', 'app.js', '--record'],
    });
  });

  it.each([
    [['--record', 'o'], /missing the command to run after --/],
    [['--', 'node', 'a.js'], /give --record FILE, --proxy URL or both/],
    [['--proxy', 'ftp://x', '--', 'node'], /--proxy must be/],
  ])('exits 2 with one line for %j', async (argv, message) => {
    const r = io();
    expect(await runCommand(argv as string[], r.io)).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(message);
  });
});
