import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import { runCli } from '../test/helpers/cli.js';

function updateFrame(): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = 42;
  const frames: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeUpdate(e, u);
    frames.push(encoding.toUint8Array(e));
  });
  doc.getText('notes').insert(0, 'hello');
  return frames[0];
}

describe('CLI inspect: Yjs frames', () => {
  it('names the protocol and message, the root types changed, and the metadata / content split', () => {
    const frame = updateFrame();
    const r = runCli(['inspect', 'f'], { f: frame });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('protocol: yjs update · notes');
    expect(r.stdout).toContain(`bytes: CRDT metadata ${frame.length - 5} B`);
    expect(r.stdout).toContain('content 5 B');
  });

  it('--json carries the split and the protocol', () => {
    const out = JSON.parse(runCli(['inspect', 'f', '--json'], { f: Uint8Array.from([0, 0, 1, 0]) }).stdout);
    expect(out.format).toBe('yjs');
    expect(out.protocol).toMatchObject({ protocol: 'yjs', message: 'sync step 1' });
    expect(out.crdt).toMatchObject({ totalBytes: 4, contentBytes: 0, metadataBytes: 4, clock: null });
  });
});
