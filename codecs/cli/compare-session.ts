import { CODEC_NAMES } from '../compare/index.js';
import { readCaptureSession } from '../compare/session/capture-input.js';
import { formatSessionJson, formatSessionMarkdown, formatSessionText } from '../compare/session/format.js';
import { runSessionComparison, SESSION_CODECS } from '../compare/session/session.js';
import { zlibEngine } from '../compare/session/zlib-engine.js';
import { nodeBrotli, SESSION_BROTLI_QUALITY } from '../compare/session/brotli-node.js';
import { loadedSchemaCodec, SCHEMA_CODEC_NAMES, type SchemaCodec } from '../compare/schema/schema-codecs.js';
import { avroCodec } from '../compare/schema/avro-codec.js';
import type { CompareArgs } from './args.js';
import { sessionReport } from './session-report.js';
import { sessionChart } from '../compare/session/cumulative.js';
import type { CodecSizes } from '../compare/session/session.js';
import { readWithSchema, sessionMessageType, type SessionProto } from './session-proto.js';
import type { MachineInfo } from '../compare/session/report.js';
import type { CompareResult } from './compare-result.js';
import { readMessagesInOrder } from '../reading/session-messages.js';
import { formatMeasuredLegsMarkdown, formatMeasuredLegsText, measuredLegs } from '../compare/session/measured-legs.js';

/**
 * `wirescope compare --session`: a capture's whole session per codec, connection and
 * direction, on the wire with permessage-deflate simulated by Node's zlib (what ws and
 * Chromium run, so the sizes are theirs). Exit 0 compared, 1 the capture has problems
 * (reported on stderr; what parsed is still compared), 2 usage error.
 */
export async function compareSessionCommand(
  raw: Uint8Array,
  args: CompareArgs,
  progress: (text: string) => void,
  proto?: SessionProto,
  machine?: MachineInfo,
): Promise<CompareResult> {
  if (args.message !== null && proto === undefined)
    return { stdout: '', stderr: 'wirescope: --message needs --proto (it names a message of those files)\n', code: 2 };
  const reportKind =
    args.report === null
      ? null
      : /\.html?$/i.test(args.report)
        ? 'html'
        : /\.(md|markdown)$/i.test(args.report)
          ? 'markdown'
          : undefined;
  if (reportKind === undefined)
    return {
      stdout: '',
      stderr: `wirescope: --report ${args.report}: name an .md or .html file (the format follows the extension)\n`,
      code: 2,
    };
  const started = performance.now();
  const codecs = args.codecs ?? [...SESSION_CODECS, ...(proto !== undefined ? ['protobuf-loaded'] : [])];
  const schemaNames: readonly string[] = SCHEMA_CODEC_NAMES;
  const unknown = codecs.filter((c) => c !== 'captured' && !CODEC_NAMES.includes(c) && !schemaNames.includes(c));
  if (unknown.length)
    return {
      stdout: '',
      stderr: `wirescope: unknown codec ${unknown.join(', ')}; codecs: captured, ${CODEC_NAMES.join(', ')}, ${schemaNames.join(', ')}\n`,
      code: 2,
    };
  const capture = readCaptureSession(raw);
  if ('error' in capture) return { stdout: '', stderr: `wirescope: ${capture.error}\n`, code: 1 };
  let { connections } = capture;
  // Every frame read in capture order, as the inspector reads it (compressed streams, evidence), before a connection is picked.
  let messages = readMessagesInOrder(capture.messages);
  if (args.connection !== null) {
    const n = Number(args.connection);
    const chosen =
      connections.find((c) => c.connectionId === args.connection) ??
      (Number.isInteger(n) && n >= 1 ? connections[n - 1] : undefined);
    if (!chosen) {
      const list = connections.map((c, i) => `${i + 1} = ${c.connectionId}${c.url ? ` (${c.url})` : ''}`).join(', ');
      return {
        stdout: '',
        stderr: `wirescope: no connection ${args.connection}; the capture has ${list || 'none'}\n`,
        code: 2,
      };
    }
    connections = [chosen];
    messages = messages.filter((m) => m.connectionId === chosen.connectionId);
  }
  let protoCodec: SchemaCodec | undefined;
  let protoNote = '';
  if (proto) {
    const chosen = sessionMessageType(proto.schema, messages, args.message);
    if ('error' in chosen) return { stdout: '', stderr: `wirescope: ${chosen.error}\n`, code: 2 };
    protoCodec = loadedSchemaCodec(proto.schema, chosen.type, proto.text);
    protoNote = chosen.note ? `wirescope: ${chosen.note}\n` : '';
    messages = readWithSchema(messages, proto.schema, chosen.type);
  }
  // A recorded '' is "none negotiated": the negotiated wire size is then the plain one.
  const negotiated = new Map(
    connections.filter((c) => c.extensions || c.extensionsRecorded).map((c) => [c.connectionId, c.extensions]),
  );
  // Each codec's message sizes, for the report's chart (what the inspector charts too).
  const perCodec: CodecSizes[] = [];
  const brotliQuality = args.brotliQuality ?? SESSION_BROTLI_QUALITY;
  const rows = await runSessionComparison(messages, {
    codecs,
    engine: zlibEngine(),
    brotli: nodeBrotli(brotliQuality),
    avro: avroCodec,
    protoCodec,
    negotiated,
    yieldEvery: 1000,
    ...(reportKind ? { onCodecSizes: (s: CodecSizes) => perCodec.push(s) } : {}),
    onProgress: (p) => progress(`compare --session: ${p.done}/${p.total} ${p.phase}${p.codec ? ` ${p.codec}` : ''}\n`),
  });
  const elapsedMs = performance.now() - started;
  const report =
    reportKind && args.report
      ? {
          path: args.report,
          text: sessionReport(reportKind, {
            capture,
            messages,
            connections,
            rows,
            chart: sessionChart(
              perCodec,
              rows.filter((r) => r.connectionId === null),
            ),
            machine,
            elapsedMs,
          }),
        }
      : undefined;
  const stderr = protoNote + capture.errors.map((e) => `wirescope: ${e}\n`).join('');
  const code = capture.errors.length ? 1 : 0;
  const title = `${capture.kind === 'har' ? 'HAR' : 'wirescope'} capture: ${messages.length} messages on ${connections.length} connection${connections.length === 1 ? '' : 's'}`;
  // A proxy's recording: what each leg carried, counted (the rows above simulate the wire).
  const chosenIds = new Set(connections.map((c) => c.connectionId));
  const measured = measuredLegs(capture.messages.filter((m) => chosenIds.has(m.connectionId)));
  if (args.output === 'json') {
    const meta = {
      capture: { kind: capture.kind, messages: messages.length, connections },
      ...(measured.length ? { measuredLegs: measured } : {}),
      engine: 'zlib',
      brotli: 'zlib (Node)',
      brotliQuality,
      errors: capture.errors,
    };
    return { stdout: formatSessionJson(rows, meta) + '\n', stderr, code, ...(report ? { report } : {}) };
  }
  const measuredText = measured.length
    ? `\n${args.output === 'markdown' ? formatMeasuredLegsMarkdown(measured) : formatMeasuredLegsText(measured)}\n`
    : '';
  return {
    stdout:
      (args.output === 'markdown' ? formatSessionMarkdown(rows, title) : formatSessionText(rows, title)) +
      '\n' +
      measuredText,
    stderr,
    code,
    ...(report ? { report } : {}),
  };
}
