/**
 * The relay's part in the extension's actions (Send again, Deliver to page): a `relay-action`
 * from the background (on the relay's runtime port: only the extension reaches it) goes to
 * the hook on the private channel with its bytes decoded; the hook's `hook-action-result`
 * goes back to the background as a `relay-action-result`. Both directions are checked by shape.
 */
import { strictBase64Bytes } from '../../codecs/core/base64.js';
import type { HookAction, RelayAction, RelayActionResult } from '../shared/messages.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The background's message as a RelayAction, or null. */
export function parseRelayAction(m: unknown): RelayAction | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'relay-action') return null;
  const { requestId, action, socketId, binary, b64 } = o;
  if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId)) return null;
  if (action !== 'send' && action !== 'deliver') return null;
  if (typeof socketId !== 'number' || !Number.isSafeInteger(socketId) || socketId < 1) return null;
  if (typeof binary !== 'boolean' || typeof b64 !== 'string' || b64.length % 4 !== 0 || !BASE64.test(b64)) return null;
  return { type: 'relay-action', requestId, action, socketId, binary, b64 };
}

/** The action as the hook takes it: bytes in a fresh ArrayBuffer (transferred to the hook). */
export function hookActionOf(a: RelayAction): HookAction {
  // Checked as strict base64 when the action was read (relayActionOf).
  const decoded = strictBase64Bytes(a.b64) ?? new Uint8Array(0);
  // The decoder's own buffer when the bytes are all of it (nothing else can see it), else a copy.
  const owned = decoded.byteOffset === 0 && decoded.byteLength === decoded.buffer.byteLength;
  const bytes = (owned ? decoded : decoded.slice()) as Uint8Array<ArrayBuffer>;
  return {
    type: 'hook-action',
    requestId: a.requestId,
    action: a.action,
    socketId: a.socketId,
    binary: a.binary,
    bytes: bytes.buffer,
  };
}

/** The hook's answer as a RelayActionResult, or null when `m` is not one. */
export function relayActionResultOf(m: unknown): RelayActionResult | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'hook-action-result') return null;
  const { requestId, ok, error } = o;
  if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId) || typeof ok !== 'boolean') return null;
  return typeof error === 'string'
    ? { type: 'relay-action-result', requestId, ok, error: error.slice(0, 500) }
    : { type: 'relay-action-result', requestId, ok };
}
