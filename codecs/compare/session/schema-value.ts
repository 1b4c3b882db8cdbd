/**
 * The value a session's schema codecs (Avro, Protobuf) are given: the frame in plain JSON
 * terms (Maps as objects, tags dropped, `toTarget` 'json-like'), or why the frame has none.
 *
 * A map with a key twice (CBOR / MessagePack / raw Protobuf can hold one; the reader keeps it
 * as an `EntriesMap`) has no plain form. Handing it on as it was let the schema codecs
 * describe it by its class — `EntriesMap` in Node, `pe` in the minified worker —
 * so the reason is said here, in the user's terms: where the key is and which key repeats.
 */
import { toTarget } from '../convert.js';
import { keyText } from '../convert.js';
import { EntriesMap, TaggedValue } from '../../core/values.js';

export type SchemaValue = { readonly plain: unknown } | { readonly unheld: string };

export function schemaValue(value: unknown): SchemaValue {
  try {
    return { plain: toTarget(value, 'json-like') };
  } catch (e) {
    return {
      unheld: duplicateKeyReason(value) ?? `the frame has no plain value a schema could hold (${(e as Error).message})`,
    };
  }
}

const MAX_KEY_CHARS = 40;

/** "customer: the key "id" appears twice (…)" for the first map holding a key twice, in document order; null when none does. */
export function duplicateKeyReason(value: unknown): string | null {
  // An explicit stack: a frame may nest deeper than the call stack goes.
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    const children: { value: unknown; path: string }[] = [];
    if (v instanceof EntriesMap) {
      const seen = new Set<string>();
      for (const [k] of v.entries) {
        const name = keyText(k);
        if (seen.has(name)) {
          const shown = name.length > MAX_KEY_CHARS ? `${name.slice(0, MAX_KEY_CHARS)}…` : name;
          return `${path || 'the frame'}: the key ${JSON.stringify(shown)} appears twice (duplicate keys), which no schema record or message can hold`;
        }
        seen.add(name);
      }
      for (const [k, c] of v.entries) children.push({ value: c, path: join(path, keyText(k)) });
    } else if (v instanceof Map) {
      for (const [k, c] of v) children.push({ value: c, path: join(path, keyText(k)) });
    } else if (Array.isArray(v)) {
      v.forEach((c, i) => {
        children.push({ value: c, path: `${path}[${i}]` });
      });
    } else if (v instanceof TaggedValue) {
      children.push({ value: v.value, path });
    } else if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
      for (const k of Object.keys(v)) children.push({ value: (v as Record<string, unknown>)[k], path: join(path, k) });
    }
    // Reversed onto the stack, so the first child is looked at first (document order).
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
