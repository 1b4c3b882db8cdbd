/**
 * The relay's part in intercept rules: `relay-rules` and `relay-hold` from the background (on
 * the relay's runtime port: only the extension reaches it) go to the hook on the private
 * channel, checked by shape; a hold action's answer comes back as a `hook-action-result`
 * (actions.ts turns it into a `relay-action-result`). When the runtime port goes away
 * (extension reloaded or updated), the relay clears the hook's rules: every held frame is
 * forwarded, in order.
 */
import { strictBase64Bytes } from '../../codecs/core/base64.js';
import { editFields, holdFields, parseRules } from '../shared/intercept-rules.js';
import type { HookHoldAction, HookRules, RelayHoldAction, RelayRules } from '../shared/messages.js';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function parseRelayRules(m: unknown): RelayRules | null {
  if (typeof m !== 'object' || m === null || (m as { type?: unknown }).type !== 'relay-rules') return null;
  const rules = parseRules((m as { rules?: unknown }).rules);
  return rules === null ? null : { type: 'relay-rules', rules };
}

export function parseRelayHold(m: unknown): RelayHoldAction | null {
  const f = holdFields(m, 'relay-hold');
  const socketId = f?.o.socketId;
  if (f === null || !isCount(socketId) || socketId < 1) return null;
  const { requestId, action, direction, seq } = f;
  const base = { type: 'relay-hold', requestId, action, socketId, direction, seq } as const;
  if (action !== 'edit') return base;
  const edit = editFields(f.o);
  return edit === null ? null : { ...base, ...edit };
}

export const hookRulesOf = (r: RelayRules): HookRules => ({ type: 'hook-rules', rules: r.rules });

/** Clears the hook's rules (every held frame forwarded). */
export const RELEASE: HookRules = { type: 'hook-rules', rules: [] };

/** The hold action as the hook takes it: an edit's bytes in a fresh ArrayBuffer (transferred). */
export function hookHoldOf(a: RelayHoldAction): HookHoldAction {
  let bytes: ArrayBuffer | null = null;
  if (a.action === 'edit') {
    const decoded = strictBase64Bytes(a.b64 ?? '') ?? new Uint8Array(0);
    const own = new Uint8Array(decoded.length);
    own.set(decoded);
    bytes = own.buffer;
  }
  return {
    type: 'hook-hold',
    requestId: a.requestId,
    action: a.action,
    socketId: a.socketId,
    direction: a.direction,
    seq: a.seq,
    binary: a.binary ?? false,
    bytes,
  };
}
