/**
 * A value of wirescope's value model (codecs/core/values.ts) as it crosses to a comparison
 * lane (lanes.ts) exactly. A structured clone (postMessage) keeps everything the model uses
 * — bigint, -0, NaN, undefined, Map, Uint8Array, Date, an own `__proto__` key — except its
 * four classes: a TaggedValue, SimpleValue, ExtValue or EntriesMap arrives as a plain object
 * with the same fields. So the sender lists where those instances are (`classes`, parents
 * before children) and the lane puts each back (`unpackValue`), children first. A value
 * without them (every plain JSON document) needs no walk at all: its features already say
 * so (features.ts). Pure: no worker API here; the clone itself is the transport's.
 */
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../core/values.js';
import type { ValueFeatures } from './features.js';

/** An object key, an array index, or a Map entry's key (`k`) or value (`v`) by position. */
export type PathStep = string | number | { readonly entry: number; readonly part: 'k' | 'v' };

export type ClassKind = 'tag' | 'simple' | 'ext' | 'entries';

export interface ClassAt {
  readonly path: readonly PathStep[];
  readonly kind: ClassKind;
}

/** What a lane receives: the value (cloned by the transport) and where its class instances were. */
export interface PackedValue {
  readonly value: unknown;
  readonly classes: readonly ClassAt[];
}

/** The value model's classes are counted by scanValue; without any, the value clones exactly as it is. */
export const holdsClasses = (f: ValueFeatures): boolean => f.tags + f.simples + f.exts + f.duplicateKeyMaps > 0;

const kindOf = (v: unknown): ClassKind | null =>
  v instanceof TaggedValue
    ? 'tag'
    : v instanceof SimpleValue
      ? 'simple'
      : v instanceof ExtValue
        ? 'ext'
        : v instanceof EntriesMap
          ? 'entries'
          : null;

/** The value and its class instances' places (iterative: frames nest deep). */
export function packValue(value: unknown, features: ValueFeatures): PackedValue {
  if (!holdsClasses(features)) return { value, classes: [] };
  const classes: ClassAt[] = [];
  const stack: { node: unknown; path: PathStep[] }[] = [{ node: value, path: [] }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const children: { node: unknown; path: PathStep[] }[] = [];
    const kind = kindOf(node);
    if (kind) classes.push({ path, kind });
    if (node instanceof TaggedValue) children.push({ node: node.value, path: [...path, 'value'] });
    else if (node instanceof EntriesMap)
      node.entries.forEach(([k, v], i) => {
        children.push({ node: k, path: [...path, 'entries', i, 0] }, { node: v, path: [...path, 'entries', i, 1] });
      });
    else if (Array.isArray(node))
      node.forEach((v, i) => {
        children.push({ node: v, path: [...path, i] });
      });
    else if (node instanceof Map) {
      let i = 0;
      for (const [k, v] of node) {
        children.push(
          { node: k, path: [...path, { entry: i, part: 'k' }] },
          { node: v, path: [...path, { entry: i, part: 'v' }] },
        );
        i++;
      }
    } else if (!kind && !(node instanceof Uint8Array))
      for (const k of Object.keys(node))
        children.push({ node: (node as Record<string, unknown>)[k], path: [...path, k] });
    // Pushed in reverse so they pop in order: `classes` lists parents before children.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { value, classes };
}

function child(node: unknown, step: PathStep): unknown {
  if (typeof step === 'object')
    return [...(node as Map<unknown, unknown>).entries()][step.entry][step.part === 'k' ? 0 : 1];
  return (node as Record<string | number, unknown>)[step];
}

function replace(parent: unknown, step: PathStep, value: unknown): void {
  if (typeof step !== 'object') {
    // A plain assignment would call the `__proto__` setter; the model keeps it as an own key.
    Object.defineProperty(parent, step, { value, enumerable: true, writable: true, configurable: true });
    return;
  }
  const map = parent as Map<unknown, unknown>;
  const entries = [...map.entries()];
  entries[step.entry][step.part === 'k' ? 0 : 1] = value;
  map.clear();
  for (const [k, v] of entries) map.set(k, v);
}

function rebuild(plain: Record<string, unknown>, kind: ClassKind): unknown {
  switch (kind) {
    case 'tag':
      return new TaggedValue(plain.tag as number | bigint, plain.value);
    case 'simple':
      return new SimpleValue(plain.value as number);
    case 'ext':
      return new ExtValue(
        plain.type as number,
        plain.data as Uint8Array,
        (plain.timestamp ?? null) as ExtValue['timestamp'],
      );
    case 'entries':
      return new EntriesMap(plain.entries as [unknown, unknown][]);
  }
}

/** The value as the sender had it, from its clone (`packed` as received). */
export function unpackValue(packed: PackedValue): unknown {
  let root = packed.value;
  // Children first: a parent rebuilt from its plain clone then holds rebuilt children.
  for (let i = packed.classes.length - 1; i >= 0; i--) {
    const { path, kind } = packed.classes[i];
    if (path.length === 0) {
      root = rebuild(root as Record<string, unknown>, kind);
      continue;
    }
    let parent = root;
    for (let s = 0; s < path.length - 1; s++) parent = child(parent, path[s]);
    const last = path[path.length - 1];
    replace(parent, last, rebuild(child(parent, last) as Record<string, unknown>, kind));
  }
  return root;
}
