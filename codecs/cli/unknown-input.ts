import { FRAME_FORMATS } from '../index.js';
import type { Detection, Rejection } from '../detect.js';
import { SpanIndex } from '../core/span-index.js';
import { protobufWalker } from '../protobuf/walker.js';
import { grouped } from '../core/grouped.js';

/** Why a detector did not even start reading (it returns null for these inputs). */
const NOT_STARTED: Readonly<Record<string, string>> = {
  json: 'no JSON value starts in this input',
  cbor: 'nothing to read',
  msgpack: 'nothing to read',
  'crdt-model': 'too short for a json-joy model (under 3 bytes)',
  'crdt-patch': 'too short for a json-joy patch (under 3 bytes)',
  ndjson: 'no newline-delimited JSON lines start in this input',
  text: 'not printable UTF-8 text',
  protobuf: 'not tried on a text frame (Protobuf is binary)',
  socketio: 'no socket.io / engine.io packet starts in this input',
  phoenix: 'not a Phoenix binary frame (kind 0-2, string sizes, strings, payload)',
  media: 'no media magic (PNG, JPEG, GIF, WebP, PDF, zip, gzip, wasm) at byte 0',
  stomp: 'no STOMP command line starts this input',
  automerge: 'no Automerge sync message (0x42 / 0x43) or chunk (85 6f 4a 83) starts this input',
  yjs: 'no y-protocols message (type 0-3 and a buffer that ends with the input) starts this input',
  mqtt: 'no MQTT packet starts in this input (or it breaks off before a whole packet)',
  signalr: 'no SignalR record (JSON ending in 0x1e, or a varint length and a MessagePack array) starts this input',
  sockjs: 'no SockJS frame (o, h, a[…], m"…", c[…]) starts this text',
};

/**
 * The CLI's error when detection found no format that decodes the input whole: it says so,
 * then lists what each reader found, the one that got furthest first (the error of
 * whichever reader got furthest, alone, read like a verdict on the format, e.g. a json-joy
 * patch message for 4 KB of random bytes), and last the readers that could not start.
 *
 * Protobuf has no magic number, so detection never offers a failed Protobuf reading as the
 * nearest one (its detector returns null then); this list still names the Protobuf
 * reader's own error and offset, read here, in its place by offset.
 */
/** `bytes`: what the readers read (a compressed frame's decompressed bytes); `length`: the input's size. */
export function noFormatReport(detection: Detection, length: number, bytes: Uint8Array, isText = false): string {
  const rejected: Rejection[] = [...detection.rejected];
  if (!isText && !rejected.some((r) => r.format === 'protobuf')) {
    const error = new SpanIndex(bytes, protobufWalker, { depth: 1 }).error;
    if (error) {
      const at = rejected.findIndex((r) => r.error.offset < error.offset);
      rejected.splice(at < 0 ? rejected.length : at, 0, { format: 'protobuf', error });
    }
  }
  const lines = [
    `error: no format decodes this input (${grouped(length)} bytes); what each reader found, furthest first:`,
  ];
  for (const r of rejected) lines.push(`  ${r.format} (${r.error.code}, offset ${r.error.offset}): ${r.error.message}`);
  const tried = new Set(rejected.map((r) => r.format));
  for (const format of FRAME_FORMATS)
    if (!tried.has(format)) lines.push(`  ${format}: ${NOT_STARTED[format] ?? 'did not start'}`);
  return lines.join('\n') + '\n';
}
