import type { ConnectionInfo, WireFrame } from '../protocol/messages.js';
import { detectCaptureKind, emptyCaptureReason, parseCapture } from '../sources/capture-file.js';
import { parseHar } from '../sources/har.js';

export interface ImportedCapture {
  readonly kind: 'har' | 'wirescope';
  readonly connections: readonly ConnectionInfo[];
  readonly frames: readonly WireFrame[];
  readonly errors: readonly string[];
}

/** A dropped or chosen file: a HAR with `_webSocketMessages` or a wirescope capture. Never throws. */
export function importCaptureFile(bytes: Uint8Array): ImportedCapture | { readonly error: string } {
  const kind = detectCaptureKind(bytes);
  if (kind === 'har') {
    const parsed = parseHar(new TextDecoder().decode(bytes));
    return {
      kind,
      connections: parsed.connections,
      frames: parsed.frames,
      errors: parsed.errors.map(
        (e) => `entry ${e.entryIndex}${e.messageIndex !== undefined ? ` message ${e.messageIndex}` : ''}: ${e.message}`,
      ),
    };
  }
  if (kind === 'wirescope') {
    const parsed = parseCapture(bytes);
    return {
      kind,
      connections: parsed.connections,
      frames: parsed.frames,
      errors: parsed.errors.map((e) => `${e.path || 'file'}: ${e.message}`),
    };
  }
  return {
    error:
      emptyCaptureReason(bytes) ?? 'not a HAR file or a wirescope capture (for a single frame, use the paste page)',
  };
}
