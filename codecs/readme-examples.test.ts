import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from './cli/main.js';
import { startupLines } from '../demo-server/startup-lines.js';
import { repoPath } from './test/helpers/paths.js';

/**
 * The README's sample outputs must be what the tools print — `npm start`'s
 * lines, the `$ echo … | npx wirescope inspect -` examples, the HTML report's CSP.
 */
const README = readFileSync(repoPath('README.md'), 'utf8');
const utf8 = new TextEncoder();

async function run(argv: string[], files: Record<string, Uint8Array>) {
  let stdout = '';
  let stderr = '';
  const written: Record<string, string> = {};
  const io: CliIo = {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    readFile: (p) =>
      files[p] ??
      (() => {
        throw Object.assign(new Error('no file'), { code: 'ENOENT' });
      })(),
    writeFile: (p, text) => (written[p] = text),
    version: 'test',
  };
  const code = await main(argv, io);
  return { code, stdout, stderr, written };
}

describe('README sample outputs are what the tools print', () => {
  it('npm start: the lines under "It prints:"', () => {
    const block = /It prints:\n\n```\n([\s\S]*?)\n```/.exec(README);
    expect(block, 'the README has an "It prints:" block').not.toBeNull();
    expect(block![1].split('\n')).toEqual(startupLines('localhost:8080'));
  });

  it('every `$ echo … | npx wirescope inspect -` example: stdout, then stderr', async () => {
    const examples = [
      ...README.matchAll(/```sh\n\$ echo '([^']*)' \| npx wirescope (inspect -[^\n]*)\n([\s\S]*?)\n```/g),
    ];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const [, input, command, shown] of examples) {
      const argv = command.trim().split(/\s+/);
      const r = await run(argv, { '-': utf8.encode(`${input}\n`) });
      expect((r.stdout + r.stderr).trimEnd(), `echo '${input}' | wirescope ${command}`).toBe(shown);
    }
  });

  it('the HTML report’s Content-Security-Policy as the README states it', async () => {
    const entry = {
      startedDateTime: '2026-11-24T12:00:00.000Z',
      _resourceType: 'websocket',
      request: { method: 'GET', url: 'wss://a.test/x', headers: [] },
      response: { status: 101, headers: [] },
      _webSocketMessages: [{ type: 'receive', time: 1, opcode: 1, data: '{"a":1}' }],
    };
    const har = utf8.encode(
      JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] } }),
    );
    const r = await run(['compare', '--session', 'cap.har', '--codecs', 'captured', '--report', 'out.html'], {
      'cap.har': har,
    });
    expect(r.code).toBe(0);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(r.written['out.html'])![1];
    const stated = /its Content-Security-Policy is `([^`]*)`/.exec(README.replace(/\s*\n\s*/g, ' '));
    expect(stated, 'the README states the CSP').not.toBeNull();
    expect(stated![1]).toBe(csp);
  });
});
