import { describe, expect, it } from 'vitest';
import type { FromWorker, IngestFrame } from './api';
import type { SessionRow } from '../../../codecs/compare/session/session';
import { runSessionComparison } from '../../../codecs/compare/session/session';
import { readCaptureSession } from '../../../codecs/compare/session/capture-input';
import { loadedSchemaCodec } from '../../../codecs/compare/schema/schema-codecs';
import { serializeCapture } from '../../../codecs/capture/capture-file';
import { main, type CliIo } from '../../../codecs/cli/main';
import { readWithSchema } from '../../../codecs/cli/session-proto';
import { readSchema } from '../../../codecs/cli/proto-schema';
import { createDispatcher } from './dispatcher';
import { forbidFunctionPerTest } from '../../../codecs/test/helpers/forbid-function';
import { createProtobufTraffic, demoProtoFiles, ENVELOPE_TYPE } from '../../../demo-server/streams/protobuf-schema';

/**
 * In the inspector: with the demo's envelope.proto and trade.proto loaded, the
 * session comparison has the row that writes every message back with the real schema — the
 * CLI's `compare --session --proto … --proto …` row, with the CLI's figures for the same
 * frames and files. It had no such row (the README said "not in the inspector yet").
 */
const FRAMES = 30;
const traffic = createProtobufTraffic({ seed: 3 });
const frames: IngestFrame[] = Array.from({ length: FRAMES }, (_, i) => ({
  frameId: i + 1,
  connectionId: 'pb',
  direction: 'received' as const,
  time: 1 + i,
  opcode: 'binary' as const,
  data: traffic.next().data as Uint8Array,
}));
const capture = serializeCapture(
  [{ connectionId: 'pb', url: 'ws://localhost:8080/demo/protobuf', protocol: '', extensions: '', time: 1 }],
  frames.map((f) => ({
    connectionId: f.connectionId,
    direction: f.direction,
    time: f.time,
    opcode: f.opcode,
    data: f.data,
  })),
);
const files = demoProtoFiles();

async function workerRows(ingested: readonly IngestFrame[] = frames, raw = false): Promise<SessionRow[]> {
  const posted: FromWorker[] = [];
  let ended: () => void = () => {};
  const done = new Promise<void>((r) => (ended = r));
  const dispatch = createDispatcher((m) => {
    posted.push(m);
    if (m.type === 'session-end') ended();
  });
  dispatch({ type: 'ingest', frames: [...ingested] });
  dispatch({ type: 'call', callId: 1, method: 'setSchema', params: { files } });
  if (raw)
    dispatch({ type: 'call', callId: 2, method: 'setSchemaType', params: { connectionId: 'pb', choice: 'raw' } });
  dispatch({ type: 'session-compare', jobId: 1, scope: { kind: 'all' }, negotiated: {} });
  await done;
  const end = posted.find((m) => m.type === 'session-end');
  expect(end && end.type === 'session-end' ? end.error : 'no end').toBeNull();
  return posted.flatMap((m) => (m.type === 'session-rows' ? m.rows : []));
}

/** The CLI's `--json` totals for the same frames (a capture file of them) and the same files. */
async function cliTotals(file = capture): Promise<SessionRow[]> {
  const io: CliIo = {
    out: (t) => (stdout += t),
    err: () => {},
    readFile: (p) => (p === 'c.wscap' ? file : new TextEncoder().encode(files.find((f) => f.name === p)!.source)),
    version: 'test',
  };
  let stdout = '';
  expect(
    await main(['compare', '--session', 'c.wscap', ...files.flatMap((f) => ['--proto', f.name]), '--json'], io),
  ).toBe(0);
  return JSON.parse(stdout).totals;
}

const { forbid } = forbidFunctionPerTest();

const loadedTotal = (rows: readonly SessionRow[]): SessionRow | undefined =>
  rows.find((r) => r.codec === 'protobuf-loaded' && r.connectionId === null);

describe('the inspector session comparison writes the messages with the loaded .proto (the CLI row)', () => {
  it('holds every demo Envelope, byte for byte as captured, with the CLI\u2019s figures', async () => {
    const rows = await workerRows();
    const row = loadedTotal(rows);
    expect(row?.label).toBe(`Protobuf (.proto ${ENVELOPE_TYPE})`);
    expect({ messages: row!.messages, left: row!.left, leftReason: row!.leftReason }).toEqual({
      messages: FRAMES,
      left: 0,
      leftReason: null,
    });
    // protobufjs wrote the demo's frames from the same files: the real schema writes them back to their own bytes.
    expect(row!.size).toBe(rows.find((r) => r.codec === 'captured' && r.connectionId === null)!.size);
    // Engine-independent figures equal the CLI's (the CLI's permessage-deflate is Node's zlib, the worker's fflate).
    const cli = loadedTotal(await cliTotals())!;
    const pick = (r: SessionRow) => ({
      label: r.label,
      messages: r.messages,
      left: r.left,
      size: r.size,
      gzip: r.gzip,
      deflate: r.deflate,
      snappy: r.snappy,
      plainWire: r.plainWire,
      schema: r.schema,
    });
    expect(pick(row!)).toEqual(pick(cli));
    expect(row!.schema!.bytes).toBe(
      files.reduce((n, f) => n + new TextEncoder().encode(f.source).length, 0) + files.length - 1,
    );
  }, 60_000);

  it('its permessage-deflate figures are the CLI path\u2019s on the same engine (fflate)', async () => {
    const row = loadedTotal(await workerRows())!;
    const loaded = readSchema(
      files.map((f) => f.name),
      (p) => new TextEncoder().encode(files.find((f) => f.name === p)!.source),
    );
    if ('error' in loaded) throw new Error(loaded.error);
    const session = readCaptureSession(capture);
    if ('error' in session) throw new Error(session.error);
    const cliRows = await runSessionComparison(readWithSchema(session.messages, loaded.schema, ENVELOPE_TYPE), {
      codecs: ['protobuf-loaded'],
      protoCodec: loadedSchemaCodec(loaded.schema, ENVELOPE_TYPE, loaded.text),
    });
    expect(row.wire).toEqual(loadedTotal(cliRows)!.wire);
  }, 60_000);

  it('a frame the type does not hold is left out with the CLI’s reason', async () => {
    const json: IngestFrame = {
      frameId: FRAMES + 1,
      connectionId: 'pb',
      direction: 'sent',
      time: FRAMES + 1,
      opcode: 'text',
      data: new TextEncoder().encode('{"subscribe":"trades"}'),
    };
    const mixed = [...frames, json];
    const file = serializeCapture(
      [{ connectionId: 'pb', url: 'ws://localhost:8080/demo/protobuf', protocol: '', extensions: '', time: 1 }],
      mixed.map((f) => ({
        connectionId: f.connectionId,
        direction: f.direction,
        time: f.time,
        opcode: f.opcode,
        data: f.data,
      })),
    );
    const row = loadedTotal(await workerRows(mixed))!;
    const cli = loadedTotal(await cliTotals(file))!;
    expect({ messages: row.messages, left: row.left }).toEqual({ messages: FRAMES, left: 1 });
    expect(row.mismatches).toEqual(cli.mismatches);
    expect(row.leftReasons).toEqual(cli.leftReasons);
    expect(row.mismatches![0].message).toBe(FRAMES + 1);
  }, 60_000);

  it('no row when the list reads no frame with the schema (the connection set to raw)', async () => {
    expect(loadedTotal(await workerRows(frames, true))).toBeUndefined();
  }, 60_000);

  it('generates no code (extension pages forbid it): the schema loads, the row is built and written with Function forbidden', async () => {
    const calls = forbid();
    expect(loadedTotal(await workerRows())?.messages).toBe(FRAMES);
    expect(calls).toEqual([]);
  }, 60_000);
});
