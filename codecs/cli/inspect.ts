import {
  compressionSummary,
  decodeFrame,
  FRAME_FORMATS,
  isPartOfMessage,
  recognizeProtocol,
  subprotocolHint,
  type FrameFormat,
} from '../index.js';
import { crdtByteSplit, crdtClockTable } from '../crdt/model-walker.js';
import { decodeCrdt, type CrdtCandidate } from '../crdt/codecs.js';
import { yjsByteSplit } from '../yjs/walker.js';
import { readInputFrame } from '../input-reading.js';
import { diagnostic } from '../core/diagnostic.js';
import { msgpackEditText } from '../edit/msgpack-edit-text.js';
import { annotatedHex } from '../core/annotate.js';
import { frameAttribution, heaviestPaths } from '../core/attribution.js';
import { nodeTreeJson, JSON_SCHEMA_VERSION } from './render-json.js';
import { nodeTreeChunks } from './render-tree.js';
import { noFormatReport } from './unknown-input.js';
import type { InspectArgs } from './args.js';
import { schemaFrame } from './proto-schema.js';
import type { LoadedSchema } from '../protobuf/schema/index.js';
import { grouped } from '../core/grouped.js';

export interface InspectResult {
  /** In chunks, made as they are written (a deep tree's text is never whole in memory). */
  readonly stdout: string | Generator<string>;
  readonly stderr: string;
  readonly malformed: boolean;
  readonly usageError?: string;
}

/** `wirescope inspect` without the process around it: bytes in, text out. */
/** `schema`: the `--proto` files, loaded; the frame is then read as Protobuf with it. */
export function inspect(raw: Uint8Array, args: InspectArgs, schema: LoadedSchema | null = null): InspectResult {
  if (args.format !== 'auto' && !FRAME_FORMATS.includes(args.format as FrameFormat)) {
    return {
      stdout: '',
      stderr: '',
      malformed: false,
      usageError: `--format must be auto or one of ${FRAME_FORMATS.join(', ')}, not ${args.format}`,
    };
  }
  const input = readInputFrame(raw, args.input, {
    format: args.format,
    isText: args.text,
    subprotocol: args.subprotocol,
  });
  if (!input.ok)
    return {
      stdout: '',
      stderr: '',
      malformed: false,
      usageError: `input is not ${args.input}: ${input.error} at character ${input.offset}`,
    };
  const bytes = input.bytes;
  const withSchema = schema ? schemaFrame(bytes, schema, args.type) : null;
  if (withSchema && 'error' in withSchema)
    return { stdout: '', stderr: '', malformed: false, usageError: withSchema.error };
  const frame = withSchema
    ? withSchema.frame
    : decodeFrame(bytes, {
        format: args.format as 'auto' | FrameFormat,
        depth: args.depth,
        // Text that won over its hex / base64 reading is a text frame, as the paste page shows it.
        isText: args.text || input.textFrame === true,
        subprotocol: args.subprotocol,
      });
  // A part of a packet its connection splits over frames (aedes writes MQTT packets a part per
  // frame): not broken, its packet goes on in the next frame.
  const part = isPartOfMessage(frame);
  const { index } = frame;
  const error = part ? null : frame.error;
  const root = index?.root ?? -1;
  const crdtFrame = frame.format === 'crdt-model' || frame.format === 'crdt-patch';
  // A JSON / CBOR / MessagePack frame may carry one of json-joy's other codecs.
  const crdt: CrdtCandidate | null =
    !crdtFrame && !error && index
      ? decodeCrdt(frame.decompressed ?? bytes, { isText: args.text || input.textFrame === true })
      : null;
  // Yjs frames split the same way (codecs/yjs): client ids, clocks, origins and the delete set are metadata.
  const split = index ? (crdtFrame ? crdtByteSplit(index) : frame.format === 'yjs' ? yjsByteSplit(index) : null) : null;
  const attribution = index && root >= 0 ? frameAttribution(index) : null;
  const heaviest = index && root >= 0 ? heaviestPaths(index, args.top, { leavesOnly: true }) : [];
  // The framing protocol around the payload (Socket.IO, Phoenix, MQTT, STOMP, …), when it says one.
  const subprotocol = args.subprotocol ?? undefined;
  const protocol = recognizeProtocol(index, frame.format, { subprotocol });
  // A subprotocol wirescope does not know is no evidence: say so rather than let it pass unnoticed.
  const unknownSubprotocol =
    subprotocol !== undefined && !subprotocolHint(subprotocol)
      ? `note: subprotocol ${subprotocol} is not one wirescope knows; detected from the bytes alone\n`
      : '';

  if (args.json) {
    const parts: string[] = [
      `"schema":${JSON_SCHEMA_VERSION}`,
      `"input":${JSON.stringify({ bytes: bytes.length, encoding: input.encoding })}`,
      `"format":${JSON.stringify(frame.format)}`,
      `"verdict":${JSON.stringify(frame.verdict)}`,
    ];
    if (subprotocol !== undefined) parts.push(`"subprotocol":${JSON.stringify(subprotocol)}`);
    if (frame.chosenBy) parts.push(`"chosenBy":${JSON.stringify(frame.chosenBy)}`);
    if (part) parts.push(`"partOfPacket":${JSON.stringify(frame.error!.message)}`);
    if (frame.detection) {
      parts.push(
        `"detection":${JSON.stringify({
          candidates: frame.detection.candidates.map((c) => ({
            format: c.format,
            confidence: round(c.confidence),
            reason: c.reason,
            ...(c.chosenBy ? { chosenBy: c.chosenBy } : {}),
          })),
          rejected: frame.detection.rejected.map((r) => ({ format: r.format, error: r.error })),
        })}`,
      );
    }
    if (withSchema)
      parts.push(
        `"protobuf":${JSON.stringify({ type: withSchema.type, chosen: withSchema.chosen, note: withSchema.note || undefined })}`,
      );
    parts.push(`"protocol":${protocol ? JSON.stringify({ ...protocol, quiet: protocol.quiet ?? false }) : 'null'}`);
    if (frame.compression) parts.push(`"compression":${JSON.stringify(frame.compression)}`);
    parts.push(
      `"error":${error ? JSON.stringify({ offset: error.offset, message: error.message, code: error.code }) : 'null'}`,
    );
    parts.push(
      `"warnings":${JSON.stringify((index?.warnings ?? []).map((w) => ({ offset: w.offset, message: w.message, code: w.code })))}`,
    );
    if (attribution)
      parts.push(
        `"attribution":${JSON.stringify({ ...attribution, heaviest: heaviest.map((h) => ({ path: h.path, bytes: h.bytes, share: round(h.share) })) })}`,
      );
    if (split && index)
      parts.push(`"crdt":${JSON.stringify({ ...split, clock: crdtFrame ? crdtClockTable(index) : null })}`);
    if (crdt)
      parts.push(
        `"crdt":${JSON.stringify(crdtReading(crdt), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Array.from(v) : v))}`,
      );
    parts.push(`"root":${index ? nodeTreeJson(index, root) : 'null'}`);
    return { stdout: `{${parts.join(',')}}\n`, stderr: unknownSubprotocol, malformed: error !== null };
  }

  // A 0-byte frame (a WebSocket frame may be empty): one verdict, worded as the paste page
  // words it; not malformed, so exit 0 (README, CLI).
  if (frame.verdict === 'empty')
    return { stdout: `empty, 0 bytes — ${EMPTY_INPUT}\n`, stderr: unknownSubprotocol, malformed: false };
  const out: (string | Iterable<string>)[] = [];
  const detected = frame.detection?.candidates[0];
  out.push(
    `${frame.format ?? 'unknown format'}${withSchema ? ` (${withSchema.type}${withSchema.note ? `, ${withSchema.note}` : ''})` : ''}, ${grouped(bytes.length)} bytes` +
      (input.encoding !== 'raw' ? ` (from ${input.encoding} input)` : '') +
      (part
        ? ` — MQTT, part of a packet: ${frame.error!.message}; the packet goes on in the connection's next frame`
        : detected
          ? ` — detected: ${detected.reason}, confidence ${round(detected.confidence)}`
          : frame.detection && frame.format
            ? ` — malformed: no format decodes it whole; shown as ${frame.format}, the reading that got furthest`
            : ''),
  );
  if (protocol)
    out.push(
      `protocol: ${protocol.protocol} ${[protocol.message, protocol.event, protocol.id !== undefined ? `id ${protocol.id}` : undefined, protocol.quiet ? 'keep-alive' : undefined].filter(Boolean).join(' · ')}`,
    );
  // A compressed frame: what it inflated to; every offset below is in the decompressed bytes.
  if (frame.compression)
    out.push(`${compressionSummary(frame.compression, frame.format)}; offsets below are in the decompressed bytes`);
  // Index in `out` of the notation (EDN): with --diag alone, every other line becomes an EDN
  // comment, so the output reads back with `wirescope encode` to the frame's bytes.
  let notation = -1;
  if (index && root >= 0) {
    if (args.diag) {
      notation = out.length;
      // MessagePack prints its edit text: EDN that keeps every format and length width.
      out.push(frame.format === 'msgpack' ? msgpackEditText(index, root) : diagnostic(index, root));
    }
    if (args.hex) out.push(annotatedHex(index, root));
    if (!args.diag && !args.hex) {
      out.push(nodeTreeChunks(index, root));
      if (split) {
        const pct = (n: number) => `${n} B (${((100 * n) / (split.totalBytes || 1)).toFixed(1)}%)`;
        out.push(`bytes: CRDT metadata ${pct(split.metadataBytes)}, content ${pct(split.contentBytes)}`);
        const clock = index && crdtFrame ? crdtClockTable(index) : null;
        if (clock)
          out.push(
            Array.isArray(clock)
              ? `clock: ${clock.map((c) => `${c.sid}.${c.time}`).join(', ')}`
              : `clock: server time ${clock.serverTime}`,
          );
      } else if (attribution && !error) {
        const pct = (n: number) => `${n} B (${((100 * n) / (attribution.bytes || 1)).toFixed(1)}%)`;
        out.push(
          `bytes: headers ${pct(attribution.headerBytes)}, keys ${pct(attribution.keyBytes)}, strings ${pct(attribution.stringPayloadBytes)}, scalars ${pct(attribution.scalarPayloadBytes)}` +
            (attribution.unindexedBytes ? `, not indexed (--depth) ${pct(attribution.unindexedBytes)}` : '') +
            (attribution.otherBytes ? `, other ${pct(attribution.otherBytes)}` : ''),
        );
        if (heaviest.length)
          out.push(
            'heaviest fields:\n' +
              heaviest.map((h) => `  ${h.path}  ${h.bytes} B (${(100 * h.share).toFixed(1)}%)`).join('\n'),
          );
      }
    }
  }
  if (crdt) {
    const r = crdtReading(crdt);
    out.push(
      `json-joy ${r.kind} in the ${r.codec} codec${r.clock ? ` (${r.clock} clock)` : ''}, confidence ${r.confidence}: ${r.describe}`,
    );
  }
  for (const w of index?.warnings ?? []) out.push(`warning: ${w.message}`);
  // With --diag alone every entry is a line of text (the tree, the one written in chunks, is not printed).
  if (args.diag && !args.hex)
    for (let i = 0; i < out.length; i++) {
      const entry = out[i];
      if (i !== notation && typeof entry === 'string') out[i] = ednComment(entry);
    }
  // A compressed frame that did not inflate whole: the inflate error is the news, whatever its partial content reads as.
  const noFormat = frame.detection !== null && frame.detection.candidates.length === 0 && !frame.compression?.error;
  const stderr =
    unknownSubprotocol +
    (noFormat
      ? noFormatReport(
          frame.detection!,
          bytes.length,
          frame.decompressed ?? bytes,
          args.text || input.textFrame === true,
        )
      : error
        ? `error: ${error.message} (${error.code}, offset ${error.offset})\n`
        : '');
  return { stdout: lines(out), stderr, malformed: error !== null };
}

/** The parts, each a line or lines in chunks, one after another with a newline after each part. */
function* lines(parts: readonly (string | Iterable<string>)[]): Generator<string> {
  for (const part of parts) {
    if (typeof part === 'string') yield `${part}\n`;
    else {
      yield* part;
      yield '\n';
    }
  }
}

/** Text as EDN `#` comments (draft-ietf-cbor-edn-literals), one per line. */
function ednComment(text: string): string {
  return text
    .split('\n')
    .map((line) => `# ${line}`)
    .join('\n');
}

/** The paste page's wording (inspector-app/src/sources/paste-input.ts). */
const EMPTY_INPUT = 'nothing to inspect: the input is empty';

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** What the CLI says about a frame read as one of json-joy's JSON- / CBOR-shaped codecs. */
function crdtReading(c: CrdtCandidate) {
  const summary = c.summary as { view?: unknown; ops?: unknown[]; id?: unknown };
  const describe =
    c.kind === 'model'
      ? `view ${truncate(JSON.stringify(summary.view, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'undefined', 80)}`
      : `${summary.ops?.length ?? 0} operations`;
  return {
    kind: c.kind,
    codec: c.codec,
    carrier: c.carrier,
    clock: c.clock ?? null,
    confidence: c.confidence,
    describe,
    summary: c.summary,
  };
}

function truncate(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
