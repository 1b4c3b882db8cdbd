/**
 * `compare --session --proto a.proto --proto b.proto --message pkg.Msg`: every
 * `--proto` file is loaded as `inspect --proto` loads them (imports among them, the
 * google/protobuf types built in), binary frames are read as the message, and the `.proto`
 * row re-encodes each one. It used only the last --proto file, did not resolve
 * google.protobuf.Timestamp, read the frames without the schema (every row 0 messages) and
 * exited 0 when the schema did not load.
 */
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../test/helpers/cli.js';
import { harBytes, harEntry } from '../test/helpers/har.js';
import {
  demoProtoFiles,
  encodeEnvelope,
  envelopeObject,
  ENVELOPE_TYPE,
} from '../../demo-server/streams/protobuf-schema.js';
import { makeRng } from '../../demo-server/rng.js';

const utf8 = new TextEncoder();
const FRAMES = 31;

/** A HAR of the demo's `/demo/protobuf` stream: 31 Envelopes (trade, quote, heartbeat; maps, Struct, Any, wrappers). */
function protoHar(): Uint8Array {
  const rng = makeRng(7);
  const started = 1_795_849_000_000;
  const messages = Array.from({ length: FRAMES }, (_, seq) => {
    const bytes = encodeEnvelope(envelopeObject(rng, seq, started + seq * 250, started));
    return { type: 'receive', time: 1000 + seq, opcode: 2, data: Buffer.from(bytes).toString('base64') };
  });
  return harBytes([harEntry('ws://localhost:8080/demo/protobuf', messages, [], '2026-11-28T07:00:00.000Z')]);
}

function run(argv: string[]) {
  const files: Record<string, Uint8Array | string> = {
    'proto.har': protoHar(),
    'bad.proto': 'syntax = "proto3";\nmessage {',
  };
  for (const f of demoProtoFiles()) files[`demo/${f.name}`] = f.source;
  return runCliAsync(argv, files);
}

const BOTH = ['--proto', 'demo/envelope.proto', '--proto', 'demo/trade.proto'];
const totalOf = (json: { totals: { codec: string }[] }, codec: string) =>
  json.totals.find((t) => t.codec === codec) as unknown as {
    messages: number;
    left: number;
    size: number;
    schema: { bytes: number } | null;
    leftReason: string | null;
  };

describe('compare --session with several --proto files', () => {
  it('loads every file (imports and google types resolve), reads the frames as the message, and the .proto row holds all of them', async () => {
    const r = await run(['compare', '--session', 'proto.har', ...BOTH, '--message', ENVELOPE_TYPE, '--json']);
    expect(r.stderr).not.toMatch(/wirescope:/);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    const loaded = totalOf(json, 'protobuf-loaded');
    expect(loaded.leftReason).toBeNull();
    expect(loaded.messages).toBe(FRAMES);
    // The real schema writes the frames back to their own bytes (protobufjs wrote them from the same files).
    expect(loaded.size).toBe(totalOf(json, 'captured').size);
    // Its size is the files' text, sent once.
    expect(loaded.schema!.bytes).toBe(demoProtoFiles().reduce((n, f) => n + utf8.encode(f.source).length, 0) + 1);
    // The other codecs re-encode the message the schema reads (field names), not a raw reading with duplicate keys.
    expect(totalOf(json, 'json').messages).toBe(FRAMES);
    expect(totalOf(json, 'cbor').messages).toBe(FRAMES);
  });

  it('the text table has the row; without --message the best-fitting type is used and named', async () => {
    const r = await run(['compare', '--session', 'proto.har', ...BOTH]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^Protobuf \\(\\.proto ${ENVELOPE_TYPE.replace(/\./g, '\\.')}\\)\\s+${FRAMES}\\s`, 'm'),
    );
    expect(r.stderr).toMatch(
      new RegExp(
        `frames read as ${ENVELOPE_TYPE.replace(/\./g, '\\.')}, the best fit for ${FRAMES} of ${FRAMES} binary frames`,
      ),
    );
  });

  it('a schema that does not load, an unknown --message or a missing file: a clear error, exit 2', async () => {
    const missingImport = await run([
      'compare',
      '--session',
      'proto.har',
      '--proto',
      'demo/envelope.proto',
      '--message',
      ENVELOPE_TYPE,
    ]);
    expect(missingImport.code).toBe(2);
    expect(missingImport.stdout).toBe('');
    expect(missingImport.stderr).toMatch(/envelope\.proto: import "trade\.proto" is not among the loaded files/);
    const syntax = await run(['compare', '--session', 'proto.har', '--proto', 'bad.proto']);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/bad\.proto/);
    const unknownType = await run(['compare', '--session', 'proto.har', ...BOTH, '--message', 'market.v1.Nope']);
    expect(unknownType.code).toBe(2);
    expect(unknownType.stderr).toMatch(
      /--message market\.v1\.Nope is not a message type of the schema \(.*market\.v1\.Envelope/,
    );
    const missing = await run(['compare', '--session', 'proto.har', '--proto', 'nope.proto']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read nope\.proto: ENOENT/);
  });
});
