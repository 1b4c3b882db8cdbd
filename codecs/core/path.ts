import { Flag, Kind } from './kinds.js';
import type { ChildName, SpanIndex } from './span-index.js';
import { describeHead, previewValue, tagNumber } from './describe.js';

/**
 * Where a node sits in its frame: a list of segments (map key, array index, tag), shown as
 * a JS-like path (`users[3].name`) or a JSON Pointer (`/users/3/name`).
 */
export type PathSegment =
  | { readonly type: 'key'; readonly key: string; readonly text: boolean }
  | { readonly type: 'index'; readonly index: number }
  | { readonly type: 'tag'; readonly tag: string }
  | { readonly type: 'chunk'; readonly index: number; readonly name?: ChildName }
  | { readonly type: 'key-of'; readonly key: string };

export function pathSegments(index: SpanIndex, id: number): PathSegment[] {
  index.requireNode(id, 'pathSegments');
  const { store } = index;
  const segments: PathSegment[] = [];
  for (let n = id; n >= 0 && store.parent[n] >= 0; n = store.parent[n]) segments.push(childSegment(index, n, -1));
  return segments.reverse();
}

/**
 * The segment that leads from a node's parent to it. `position` is the node's index among
 * its parent's recorded children when the caller knows it (listing children in order);
 * -1 counts siblings, which costs O(siblings): a caller that labels every child of a
 * 100,000-item array must pass it, or the listing is quadratic.
 */
export function childSegment(index: SpanIndex, n: number, position: number): PathSegment {
  index.requireNode(n, 'childSegment');
  const { store } = index;
  const parent = store.parent[n];
  const pk = store.kind[parent];
  // json-joy object entries and ins_obj operands are keyed like map values.
  if (
    pk === Kind.map ||
    ((pk === Kind.crdt_obj || pk === Kind.crdt_op) && ((store.flags[n] & Flag.key) !== 0 || index.keyOf(n) >= 0))
  ) {
    const isKey = (store.flags[n] & Flag.key) !== 0;
    const keyId = isKey ? n : index.keyOf(n);
    // json-joy keys are content leaves holding the key's text; Protobuf keys read with a schema are field names.
    const keyIsText =
      keyId >= 0 &&
      (store.kind[keyId] === Kind.text ||
        ((store.kind[keyId] === Kind.crdt_content || store.kind[keyId] === Kind.pb_tag) &&
          typeof index.value(keyId) === 'string'));
    const key =
      keyId < 0
        ? '?'
        : keyIsText && !index.isIncomplete(keyId)
          ? String(index.value(keyId))
          : previewValue(index, keyId, 40);
    return isKey ? { type: 'key-of', key } : { type: 'key', key, text: keyIsText };
  }
  if (pk === Kind.tag) return { type: 'tag', tag: tagNumber(index, parent) };
  const name = index.walker.childName?.(index, n);
  if (name) return { type: 'chunk', index: Math.max(0, position), name };
  let i = position;
  if (i < 0) {
    i = 0;
    for (let c = store.firstChild[parent]; c >= 0 && c !== n; c = store.nextSibling[c]) i++;
  }
  return pk === Kind.array ? { type: 'index', index: i } : { type: 'chunk', index: i };
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `users[3].name`, `["a b"]`, `[1]` for a non-text key 1, `<tag 1>` through a tag; the root is `$`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let s = '$';
  for (const seg of segments) {
    switch (seg.type) {
      case 'key':
        s += seg.text ? (IDENT.test(seg.key) ? `.${seg.key}` : `[${JSON.stringify(seg.key)}]`) : `{${seg.key}}`;
        break;
      case 'key-of':
        s += `<key ${JSON.stringify(seg.key)}>`;
        break;
      case 'index':
        s += `[${seg.index}]`;
        break;
      case 'chunk':
        s += seg.name ? seg.name.path : `<chunk ${seg.index}>`;
        break;
      case 'tag':
        s += `<tag ${seg.tag}>`;
        break;
    }
  }
  return s;
}

/** RFC 6901 JSON Pointer; tags are transparent (a pointer cannot name them). */
export function formatPointer(segments: readonly PathSegment[]): string {
  let s = '';
  for (const seg of segments) {
    if (seg.type === 'key' || seg.type === 'key-of') s += '/' + seg.key.replace(/~/g, '~0').replace(/\//g, '~1');
    else if (seg.type === 'chunk' && seg.name) s += seg.name.pointer;
    else if (seg.type === 'index' || seg.type === 'chunk') s += '/' + seg.index;
  }
  return s;
}

export function pathOf(index: SpanIndex, id: number): string {
  return formatPath(pathSegments(index, id));
}

export { describeHead };
