/**
 * Shape checks for intercept rules, at every hop (background, relay, hook): fields checked
 * one by one and copied, sizes bounded. Imported by the hook and relay bundles: keep it small.
 */
import type { Direction, HoldActionKind, InterceptRule, PanelRule } from './messages.js';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
export const MAX_RULES = 256;
const MAX_TEXT = 4096;
const MAX_IDS = 10_000;

type RuleFields = Omit<InterceptRule, 'socketIds'>;

function ruleFields(v: unknown): (RuleFields & { readonly rest: Record<string, unknown> }) | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Record<string, unknown>;
  const { id, direction, url, contains, action, delayMs } = r;
  if (typeof id !== 'string' || id.length > 100) return null;
  if (direction !== 'sent' && direction !== 'received' && direction !== 'both') return null;
  if (typeof url !== 'string' || url.length > MAX_TEXT || typeof contains !== 'string' || contains.length > MAX_TEXT)
    return null;
  if (action !== 'pause' && action !== 'drop' && action !== 'delay') return null;
  if (!isCount(delayMs) || delayMs > 600_000) return null;
  return {
    id,
    direction: direction as RuleFields['direction'],
    url,
    contains,
    action: action as RuleFields['action'],
    delayMs,
    rest: r,
  };
}

function list<T>(v: unknown, max: number, item: (x: unknown) => T | null): T[] | null {
  if (!Array.isArray(v) || v.length > max) return null;
  const out: T[] = [];
  for (let i = 0; i < v.length; i++) {
    const x = item(v[i]);
    if (x === null) return null;
    out[out.length] = x;
  }
  return out;
}

/** An intercept rule as the hook applies it, or null. */
export function parseRule(v: unknown): InterceptRule | null {
  const f = ruleFields(v);
  if (f === null) return null;
  const { rest, ...rule } = f;
  if (rest.socketIds === undefined) return rule;
  const socketIds = list(rest.socketIds, MAX_IDS, (s) => (isCount(s) && s >= 1 ? s : null));
  return socketIds === null ? null : { ...rule, socketIds };
}

/** A list of rules, or null when it is not one (or too long). */
export const parseRules = (v: unknown): InterceptRule[] | null => list(v, MAX_RULES, parseRule);

/** A rule as the panel sends it (connection ids instead of socket ids), or null. */
export function parsePanelRule(v: unknown): PanelRule | null {
  const f = ruleFields(v);
  if (f === null) return null;
  const { rest, ...rule } = f;
  if (rest.connectionIds === undefined) return rule;
  const connectionIds = list(rest.connectionIds, MAX_IDS, (s) => (typeof s === 'string' && s.length <= 200 ? s : null));
  return connectionIds === null ? null : { ...rule, connectionIds };
}

/**
 * The fields every hold action carries (request id, action, direction, held frame number)
 * from a message of type `type`, or null; the caller checks where it is addressed.
 */
export function holdFields(
  m: unknown,
  type: string,
): { requestId: number; action: HoldActionKind; direction: Direction; seq: number; o: Record<string, unknown> } | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== type) return null;
  const { requestId, action, direction, seq } = o;
  if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId)) return null;
  if (!isHoldActionKind(action) || !isDirection(direction) || !isCount(seq)) return null;
  return { requestId, action, direction, seq, o };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An edit's new frame as it crosses runtime messaging (binary flag, base64 bytes), or null. */
export function editFields(o: Record<string, unknown>): { binary: boolean; b64: string } | null {
  const { binary, b64 } = o;
  if (typeof binary !== 'boolean' || typeof b64 !== 'string' || b64.length % 4 !== 0 || !BASE64.test(b64)) return null;
  return { binary, b64 };
}

export const isHoldActionKind = (v: unknown): v is HoldActionKind =>
  v === 'forward' || v === 'edit' || v === 'drop' || v === 'forward-all';
export const isDirection = (v: unknown): v is Direction => v === 'sent' || v === 'received';
