import { describe, expect, it } from 'vitest';
import { captureLinesHeader, connectionLine, frameLine } from '../capture/capture-lines.js';
import type { WireFrame } from '../capture/types.js';
import { runCliOn } from '../test/helpers/cli.js';

const text = (s: string) => new TextEncoder().encode(s);
const frame = (direction: WireFrame['direction'], data: string, client: number | null, upstream: number | null) =>
  frameLine({
    connectionId: 'proxy-1',
    direction,
    time: 1,
    opcode: 'text',
    data: text(data),
    legBytes: { client, upstream },
  });

/** A proxy's recording: the upstream leg deflated, the client's plain; one message not forwarded. */
const recording = text(
  captureLinesHeader() +
    connectionLine({
      connectionId: 'proxy-1',
      url: 'ws://up/',
      protocol: '',
      extensions: '',
      extensionsRecorded: true,
      upstreamExtensions: 'permessage-deflate',
      time: 0,
    }) +
    frame('sent', '{"a":1}', 13, 9) +
    frame('sent', '{"a":2}', 13, 9) +
    frame('received', '{"b":"xxxxxxxxxx"}', 20, 12) +
    frame('received', '{"b":"late"}', null, 14),
);

describe('compare --session on a proxy recording', () => {
  it('shows the bytes each leg carried, measured, beside the simulated wire rows', async () => {
    const r = await runCliOn(['compare', '--session', 'rec.wirescope'], recording);
    expect(r.code).toBe(0);
    const table = r.stdout.slice(r.stdout.indexOf('Measured on the wire')).split('\n');
    expect(table[1].split(/\s{2,}/)).toEqual([
      'connection',
      'direction',
      'messages',
      'payload B',
      'client leg B',
      'upstream leg B',
    ]);
    expect(table[2].split(/\s{2,}/)).toEqual(['all', 'client → server', '2', '14', '26', '18']);
    expect(table[3].split(/\s{2,}/)).toEqual(['all', 'server → client', '2', '30', '20 (1 crossed)', '26']);
    expect(table[4].split(/\s{2,}/)).toEqual(['proxy-1', 'client → server', '2', '14', '26', '18']);
  });

  it('carries the same figures in --json', async () => {
    const r = await runCliOn(['compare', '--session', 'rec.wirescope', '--json'], recording);
    const json = JSON.parse(r.stdout) as { measuredLegs: unknown[] };
    expect(json.measuredLegs[0]).toEqual({
      connectionId: null,
      direction: 'client-to-server',
      messages: 2,
      payload: 14,
      client: 26,
      clientMessages: 2,
      upstream: 18,
      upstreamMessages: 2,
    });
  });

  it('says nothing of measured legs for a capture without them', async () => {
    const plain = text(
      captureLinesHeader() +
        connectionLine({ connectionId: 'c', url: 'ws://x/', protocol: '', extensions: '', time: 0 }) +
        frameLine({ connectionId: 'c', direction: 'sent', time: 1, opcode: 'text', data: text('{}') }),
    );
    const r = await runCliOn(['compare', '--session', 'x.wirescope'], plain);
    expect(r.stdout).not.toContain('Measured on the wire');
  });
});
