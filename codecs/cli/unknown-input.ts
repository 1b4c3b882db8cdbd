import { FRAME_FORMATS } from '../index.js';
import type { Detection } from '../detect.js';

/** Why a detector did not even start reading (it returns null for these inputs). */
const NOT_STARTED: Readonly<Record<string, string>> = {
  json: 'no JSON value starts in this input',
  cbor: 'nothing to read',
  msgpack: 'nothing to read',
  'crdt-model': 'too short for a json-joy model (under 3 bytes)',
  'crdt-patch': 'too short for a json-joy patch (under 3 bytes)',
  ndjson: 'no newline-delimited JSON lines start in this input',
  text: 'not printable UTF-8 text',
  protobuf: 'nothing to read',
  socketio: 'no socket.io / engine.io packet starts in this input',
  phoenix: 'not a Phoenix binary frame (kind 0-2, string sizes, strings, payload)',
  stomp: 'no STOMP command line starts this input',
  mqtt: 'no MQTT packet starts in this input (or it breaks off before a whole packet)',
};

/**
 * The CLI's error when detection found no format that decodes the input whole: it says so,
 * then lists what each reader found, the one that got furthest first (the error of
 * whichever reader got furthest, alone, read like a verdict on the format, e.g. a json-joy
 * patch message for 4 KB of random bytes), and last the readers that could not start.
 */
export function noFormatReport(detection: Detection, length: number): string {
  const lines = [`error: no format decodes this input (${length} bytes); what each reader found, furthest first:`];
  for (const r of detection.rejected) lines.push(`  ${r.format} (${r.error.code}, offset ${r.error.offset}): ${r.error.message}`);
  const tried = new Set(detection.rejected.map((r) => r.format));
  for (const format of FRAME_FORMATS) if (!tried.has(format)) lines.push(`  ${format}: ${NOT_STARTED[format] ?? 'did not start'}`);
  return lines.join('\n') + '\n';
}
