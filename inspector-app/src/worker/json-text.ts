import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../../../codecs/index.js';

const BIG = '\u0000big:';
const BIG_QUOTED = /"\\u0000big:(-?\d+)"/g;

function hex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i].toString(16).padStart(2, '0');
  return s;
}

/**
 * Our value model as JSON for reading (the Text tab, filters, diffs): bigints stay exact
 * digits, bytes become `"h'…'"`, tags `{"tag(1)": …}`, Maps with non-string keys
 * `{"<key>": …}`, undefined `"undefined"`. Not a lossless encoding: that is what EDN is for.
 */
function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return BIG + value.toString();
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value instanceof Uint8Array) return `h'${hex(value)}'`;
  if (value instanceof TaggedValue) return { [`tag(${value.tag})`]: value.value };
  if (value instanceof SimpleValue) return `simple(${value.value})`;
  if (value instanceof ExtValue)
    return value.timestamp?.date
      ? value.timestamp.date.toISOString()
      : { [`ext(${value.type})`]: `h'${hex(value.data)}'` };
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [keyText(k), v]));
  if (value instanceof EntriesMap) return value.entries.map(([k, v]) => ({ [keyText(k)]: v }));
  return value;
}

function keyText(k: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'bigint') return k.toString();
  if (k instanceof Uint8Array) return `h'${hex(k)}'`;
  return JSON.stringify(k, replacer) ?? String(k);
}

export interface JsonTextResult {
  readonly text: string;
  readonly truncated: boolean;
}

/** Pretty JSON text, cut at `maxChars`. Values nested deeper than the engine's stack say so. */
export function jsonText(value: unknown, maxChars = Infinity, indent: number | undefined = 2): JsonTextResult {
  let text: string;
  try {
    text = (JSON.stringify(value, replacer, indent) ?? 'undefined').replace(BIG_QUOTED, '$1');
  } catch (e) {
    return {
      text: `// cannot show as JSON: ${(e as Error).message}. The EDN view is iterative and shows any depth.`,
      truncated: false,
    };
  }
  if (text.length > maxChars) return { text: text.slice(0, maxChars), truncated: true };
  return { text, truncated: false };
}
