import { describe, expect, it } from 'vitest';
import type { FromWorker, IngestFrame } from './api';
import type { SessionRow } from '../../../codecs/compare/session/session';
import { createDispatcher } from './dispatcher';
import { createProtobufTraffic, demoProtoFiles } from '../../../demo-server/streams/protobuf-schema';

/**
 * The session comparison read each frame's raw bytes (raw Protobuf: numbered
 * fields, "duplicate map keys" for repeated ones) while the list read them with the loaded
 * schema. It must compare what the list shows: the demo's Envelopes by their field names.
 */
function demoFrames(n: number): IngestFrame[] {
  const traffic = createProtobufTraffic({ seed: 3 });
  return Array.from({ length: n }, (_, i) => ({
    frameId: i + 1,
    connectionId: 'pb',
    direction: 'received' as const,
    time: i,
    opcode: 'binary' as const,
    data: traffic.next().data as Uint8Array,
  }));
}

async function sessionRows(withSchema: boolean): Promise<SessionRow[]> {
  const posted: FromWorker[] = [];
  let ended: () => void = () => {};
  const done = new Promise<void>((r) => (ended = r));
  const dispatch = createDispatcher((m) => {
    posted.push(m);
    if (m.type === 'session-end') ended();
  });
  dispatch({ type: 'ingest', frames: demoFrames(30) });
  if (withSchema) dispatch({ type: 'call', callId: 1, method: 'setSchema', params: { files: demoProtoFiles() } });
  dispatch({ type: 'session-compare', jobId: 1, scope: { kind: 'all' }, negotiated: {} });
  await done;
  const end = posted.find((m) => m.type === 'session-end');
  expect(end && end.type === 'session-end' ? end.error : 'no end').toBeNull();
  return posted.flatMap((m) => (m.type === 'session-rows' ? m.rows : []));
}

const total = (rows: readonly SessionRow[], codec: string): SessionRow =>
  rows.find((r) => r.codec === codec && r.connectionId === null)!;

describe('session comparison with a loaded Protobuf schema (the demo .proto files)', () => {
  it('re-encodes every frame as the list reads it: field names, no message left out', async () => {
    const rows = await sessionRows(true);
    for (const codec of ['json', 'cbor', 'msgpack'])
      expect({ codec, messages: total(rows, codec).messages, left: total(rows, codec).left }).toEqual({
        codec,
        messages: 30,
        left: 0,
      });
    // The values have the schema's field names: the JSON of one message names `seq` and `sent_at`.
    expect(total(rows, 'protobuf').schema?.text).toMatch(/\bseq\b/);
    expect(total(rows, 'protobuf').schema?.text).toMatch(/\bsent_at\b/);
    for (const r of rows) expect(r.leftReason ?? '').not.toMatch(/duplicate/);
  }, 60_000);

  it('without a schema the raw reading is compared, as the list shows it', async () => {
    const rows = await sessionRows(false);
    expect(total(rows, 'captured').messages).toBe(30);
    expect(total(rows, 'protobuf').schema?.text ?? '').not.toMatch(/\bsent_at\b/);
  }, 60_000);
});
