/**
 * A capture file (HAR with `_webSocketMessages`, or a wirescope capture) as session
 * messages. Uses the inspector app's own parsers (pure, DOM-free: JSON and base64 only),
 * so the CLI and the app read the same files the same way; their errors are kept as text.
 */
import { parseHar } from '../../capture/har.js';
import { detectCaptureKind, emptyCaptureReason, parseCapture } from '../../capture/capture-file.js';
import type { SessionMessage } from './session.js';

export interface CaptureConnection {
  readonly connectionId: string;
  readonly url: string;
  /** The negotiated `Sec-WebSocket-Extensions` ('' when none or not recorded). */
  readonly extensions: string;
  /** The file records the header: '' then means none was negotiated. */
  readonly extensionsRecorded?: boolean;
  /** The negotiated subprotocol (`Sec-WebSocket-Protocol`), when one was: detection evidence for its frames. */
  readonly subprotocol?: string;
}

export interface CaptureSession {
  readonly kind: 'har' | 'wirescope';
  readonly connections: readonly CaptureConnection[];
  readonly messages: readonly SessionMessage[];
  /** Problems the parser reported; what parsed is kept. */
  readonly errors: readonly string[];
}

/** The session in a capture file, or why it is not one. */
export function readCaptureSession(bytes: Uint8Array): CaptureSession | { readonly error: string } {
  const kind = detectCaptureKind(bytes);
  if (!kind)
    return {
      error:
        emptyCaptureReason(bytes) ??
        'not a HAR file or wirescope capture (expected a JSON object with log.entries or "format": "wirescope-capture")',
    };
  const parsed = kind === 'har' ? parseHar(new TextDecoder().decode(bytes)) : parseCapture(bytes);
  const errors = parsed.errors.map((e) =>
    'path' in e
      ? e.path
        ? `${e.path}: ${e.message}`
        : e.message
      : e.entryIndex >= 0
        ? `entries[${e.entryIndex}]: ${e.message}`
        : e.message,
  );
  if (parsed.connections.length === 0 && parsed.frames.length === 0 && errors.length) return { error: errors[0] };
  const connections: CaptureConnection[] = parsed.connections.map((c) => ({
    connectionId: c.connectionId,
    url: c.url,
    extensions: c.extensions,
    ...(c.extensionsRecorded ? { extensionsRecorded: true } : {}),
    ...(c.protocol ? { subprotocol: c.protocol } : {}),
  }));
  // Frames of a connection the file does not list still count: the bytes are intact.
  for (const f of parsed.frames) {
    if (!connections.some((c) => c.connectionId === f.connectionId))
      connections.push({ connectionId: f.connectionId, url: '', extensions: '' });
  }
  const subprotocols = new Map(connections.filter((c) => c.subprotocol).map((c) => [c.connectionId, c.subprotocol!]));
  const messages: SessionMessage[] = parsed.frames.map((f, i) => ({
    // Its position in the capture (the parser's order, which the inspector's import numbers its frames by): kept when one connection is compared.
    number: i + 1,
    connectionId: f.connectionId,
    direction: f.direction === 'sent' ? 'client-to-server' : 'server-to-client',
    opcode: f.opcode === 'text' ? 1 : 2,
    data: f.data,
    ...(f.legBytes ? { legBytes: f.legBytes } : {}),
    ...(f.origin ? { origin: f.origin } : {}),
    ...(subprotocols.has(f.connectionId) ? { subprotocol: subprotocols.get(f.connectionId) } : {}),
  }));
  return { kind, connections, messages, errors };
}
