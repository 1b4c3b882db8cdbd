/**
 * The frame list's path filter: `users[*].name`, `$.a.b[0]`, `a["x y"]` or a JSON Pointer
 * (`/users/0/name`, `*` allowed as a segment). Matching runs on materialized values in the
 * worker. A path names keys and indexes, as the tree shows them: a CBOR tag (`55799`
 * self-describe, a date, a URI) wraps the value it labels and is not a step of the path, and a
 * map keyed by integers (`byCurrency{978}`) answers `byCurrency.978`.
 */
import { EntriesMap, TaggedValue } from '../../../codecs/core/values.js';

export type PathPart =
  | { readonly type: 'key'; readonly key: string }
  | { readonly type: 'index'; readonly index: number }
  | { readonly type: 'any' };

export type ParsedPath =
  | { readonly ok: true; readonly parts: readonly PathPart[] }
  | { readonly ok: false; readonly error: string; readonly offset: number };

export function parsePath(text: string): ParsedPath {
  const s = text.trim();
  if (s === '') return { ok: true, parts: [] };
  if (s.startsWith('/')) {
    const parts = s
      .slice(1)
      .split('/')
      .map((raw): PathPart => {
        const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        if (seg === '*') return { type: 'any' };
        return /^(0|[1-9]\d*)$/.test(seg) ? { type: 'index', index: Number(seg) } : { type: 'key', key: seg };
      });
    return { ok: true, parts };
  }
  const parts: PathPart[] = [];
  let i = s.startsWith('$') ? 1 : 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      i++;
      const m = /^(\*|[^.[\]]+)/.exec(s.slice(i));
      if (!m) return { ok: false, error: 'expected a key after "."', offset: i };
      parts.push(m[1] === '*' ? { type: 'any' } : { type: 'key', key: m[1] });
      i += m[1].length;
    } else if (c === '[') {
      const close = s.indexOf(']', i);
      if (close < 0) return { ok: false, error: 'missing "]"', offset: i };
      const inner = s.slice(i + 1, close).trim();
      if (inner === '*') parts.push({ type: 'any' });
      else if (/^\d+$/.test(inner)) parts.push({ type: 'index', index: Number(inner) });
      else if (/^".*"$|^'.*'$/.test(inner)) parts.push({ type: 'key', key: inner.slice(1, -1) });
      else return { ok: false, error: `not an index, "*" or a quoted key: ${inner}`, offset: i + 1 };
      i = close + 1;
    } else if (i === 0) {
      const m = /^[^.[\]]+/.exec(s)!;
      parts.push(m[0] === '*' ? { type: 'any' } : { type: 'key', key: m[0] });
      i += m[0].length;
    } else return { ok: false, error: `unexpected ${JSON.stringify(c)}`, offset: i };
  }
  return { ok: true, parts };
}

/** The value a tag labels, through any number of tags. */
function untagged(value: unknown): unknown {
  let v = value;
  while (v instanceof TaggedValue) v = v.value;
  return v;
}

function childrenOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return [...value.values()];
  if (value instanceof EntriesMap) return value.entries.map(([, v]) => v);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) return Object.values(value);
  return [];
}

/** Does a map key (a string, or a number or bigint in a CBOR or MessagePack map) read as `key`? */
function keyReads(mapKey: unknown, key: string): boolean {
  const k = untagged(mapKey);
  return (typeof k === 'string' || typeof k === 'number' || typeof k === 'bigint') && String(k) === key;
}

function child(tagged: unknown, part: PathPart): unknown[] {
  const value = untagged(tagged);
  if (part.type === 'any') return childrenOf(value);
  if (part.type === 'index') {
    if (Array.isArray(value)) return part.index < value.length ? [value[part.index]] : [];
    // A JSON Pointer's "0" may name an object key, `byCurrency[978]` an integer key.
    return child(value, { type: 'key', key: String(part.index) });
  }
  if (value instanceof Map) {
    if (value.has(part.key)) return [value.get(part.key)];
    return [...value].filter(([k]) => keyReads(k, part.key)).map(([, v]) => v);
  }
  if (value instanceof EntriesMap) return value.entries.filter(([k]) => keyReads(k, part.key)).map(([, v]) => v);
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, part.key)) {
    return [(value as Record<string, unknown>)[part.key]];
  }
  return [];
}

/** Every value the path resolves to (iterative over the path, not the value). */
export function resolvePath(value: unknown, parts: readonly PathPart[]): unknown[] {
  let current: unknown[] = [value];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const v of current) for (const c of child(v, part)) next.push(c);
    current = next;
    if (current.length === 0) break;
  }
  return current;
}
