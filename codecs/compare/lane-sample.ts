/**
 * A small copy of a large value, with the same shapes, for warming comparison lanes before
 * the user asks (lanes.ts `warmLanes`). A fresh lane is a fresh isolate: its first 1 MB
 * comparison runs every encoder, decoder, the deflate sizer and the diff on a cold JIT, and
 * the json-pack phase took 1.1–1.6 s instead of 0.7–0.9 s warm. Warming on a
 * sample of the user's own value tiers up the very code paths (keys, number widths, string
 * lengths, nesting) the real comparison will take, at a small fraction of its cost.
 *
 * The sample keeps every kind of node the value has near its start: the first SAMPLE_ITEMS
 * elements of each array, the first SAMPLE_KEYS entries of each object or map, strings and
 * byte strings cut to SAMPLE_TEXT units, and stops copying containers (they become empty)
 * once SAMPLE_NODES nodes are taken. Tags, extension values and other leaves are kept as
 * they are (a tag's content is sampled too). Pure: the value is not changed.
 */
import { EntriesMap, TaggedValue, setOwn } from '../core/values.js';

export const SAMPLE_ITEMS = 48;
export const SAMPLE_KEYS = 64;
export const SAMPLE_TEXT = 2048;
export const SAMPLE_NODES = 6000;
/** Deeper than this, a container is not copied (a warm-up needs no deep recursion). */
export const SAMPLE_DEPTH = 64;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** A string cut to `max` UTF-16 units without splitting a surrogate pair. */
function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  return s.slice(0, isHighSurrogate(s.charCodeAt(max - 1)) ? max - 1 : max);
}

/** A sample of `value` (see above); the value itself when it is a leaf. */
export function laneSample(value: unknown): unknown {
  let nodes = 0;
  const copy = (node: unknown, depth: number): unknown => {
    nodes++;
    if (typeof node === 'string') return cutText(node, SAMPLE_TEXT);
    if (node === null || typeof node !== 'object') return node;
    if (node instanceof Uint8Array) return node.length <= SAMPLE_TEXT ? node : node.slice(0, SAMPLE_TEXT);
    const full = nodes > SAMPLE_NODES || depth >= SAMPLE_DEPTH;
    if (Array.isArray(node)) {
      if (full) return [];
      const out: unknown[] = [];
      for (let i = 0; i < node.length && i < SAMPLE_ITEMS; i++) out.push(copy(node[i], depth + 1));
      return out;
    }
    if (node instanceof TaggedValue) return new TaggedValue(node.tag, copy(node.value, depth + 1));
    if (node instanceof EntriesMap) {
      if (full) return new EntriesMap([]);
      return new EntriesMap(
        node.entries.slice(0, SAMPLE_KEYS).map(([k, v]) => [copy(k, depth + 1), copy(v, depth + 1)]),
      );
    }
    if (node instanceof Map) {
      const out = new Map<unknown, unknown>();
      if (full) return out;
      for (const [k, v] of node) {
        if (out.size >= SAMPLE_KEYS) break;
        out.set(k, copy(v, depth + 1));
      }
      return out;
    }
    if (Object.getPrototypeOf(node) !== Object.prototype && Object.getPrototypeOf(node) !== null) return node;
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(node) as object | null);
    if (full) return out;
    let taken = 0;
    for (const key of Object.keys(node)) {
      if (taken++ >= SAMPLE_KEYS) break;
      // An own `__proto__` key stays an own key (the value model keeps it so).
      setOwn(out, key, copy((node as Record<string, unknown>)[key], depth + 1));
    }
    return out;
  };
  return copy(value, 0);
}
