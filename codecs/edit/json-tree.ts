import { jsonProblem } from './json-text.js';

/**
 * A JSON text as a tree that remembers where each value and key starts (so an encoder can
 * point at the value it refuses) and keeps numbers as their text (so 64-bit integers stay
 * exact). Objects keep their entries in text order, duplicates included.
 */
export type JsonNode =
  | { readonly kind: 'object'; readonly at: number; readonly entries: readonly JsonEntry[] }
  | { readonly kind: 'array'; readonly at: number; readonly items: readonly JsonNode[] }
  | { readonly kind: 'string'; readonly at: number; readonly value: string }
  | { readonly kind: 'number'; readonly at: number; readonly text: string }
  | { readonly kind: 'bool'; readonly at: number; readonly value: boolean }
  | { readonly kind: 'null'; readonly at: number };

export interface JsonEntry {
  readonly key: string;
  readonly keyAt: number;
  readonly value: JsonNode;
}

/** The tree of a JSON text, or where and why it is not JSON. */
export function parseJsonTree(
  text: string,
): { ok: true; root: JsonNode } | { ok: false; offset: number; message: string } {
  const problem = jsonProblem(text);
  if (problem) return { ok: false, ...problem };
  let i = 0;
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    space();
    const at = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: JsonEntry[] = [];
      space();
      if (text[i] === '}') i++;
      else
        for (;;) {
          space();
          const keyAt = i;
          const key = string();
          space();
          i++; // ':'
          entries.push({ key, keyAt, value: value() });
          space();
          if (text[i++] === '}') break;
        }
      return { kind: 'object', at, entries };
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      space();
      if (text[i] === ']') i++;
      else
        for (;;) {
          items.push(value());
          space();
          if (text[i++] === ']') break;
        }
      return { kind: 'array', at, items };
    }
    if (c === '"') return { kind: 'string', at, value: string() };
    if (text.startsWith('true', i)) {
      i += 4;
      return { kind: 'bool', at, value: true };
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return { kind: 'bool', at, value: false };
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return { kind: 'null', at };
    }
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const t = m.exec(text)![0];
    i += t.length;
    return { kind: 'number', at, text: t };
  };
  return { ok: true, root: value() };
}
