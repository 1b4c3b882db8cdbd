import { Flag, Kind } from '../core/kinds.js';
import type { ChildName, SpanIndex } from '../core/span-index.js';
import { patchOpName } from './patch-opcodes.js';

/**
 * Names for the unnamed children of json-joy frames, so paths read like json-joy's verbose
 * JSON (`$.ops[2].after`) instead of positions (`$<chunk 2><chunk 1>`): a patch's `id`,
 * `meta` and `ops[k]`; an operation's operands by role (`obj`, `after`, `ref`, `value`,
 * `values[i]`, `what[i]`); a model's `root` node and `clock`. Object keys are keys already.
 */

/** Operand roles by op name, in encoding order; the last role repeats (`values[i]`). */
const OPERANDS: Readonly<Record<string, { readonly fixed: readonly string[]; readonly repeated?: string }>> = {
  new_con: { fixed: ['value'] },
  ins_val: { fixed: ['obj', 'value'] },
  ins_obj: { fixed: ['obj'] },
  ins_vec: { fixed: ['obj'], repeated: 'value' },
  ins_str: { fixed: ['obj', 'after', 'value'] },
  ins_bin: { fixed: ['obj', 'after', 'value'] },
  ins_arr: { fixed: ['obj', 'after'], repeated: 'values' },
  upd_arr: { fixed: ['obj', 'ref', 'value'] },
  del: { fixed: ['obj'], repeated: 'what' },
};

const plain = (name: string): ChildName => ({ label: name, path: `.${name}`, pointer: `/${name}` });
const item = (name: string, i: number): ChildName => ({
  label: `${name}[${i}]`,
  path: `.${name}[${i}]`,
  pointer: `/${name}/${i}`,
});

/** The name of a json-joy node's child, or null where position says it best (RGA chunks, keyed entries). */
export function crdtChildName(index: SpanIndex, id: number): ChildName | null {
  const { store } = index;
  const parent = store.parent[id];
  if (parent < 0 || store.flags[id] & Flag.key) return null;
  const pk = store.kind[parent];
  const kind = store.kind[id];
  if (pk === Kind.crdt_model) return kind === Kind.crdt_clock ? plain('clock') : plain('root');
  if (pk === Kind.crdt_patch) {
    if (kind === Kind.crdt_id) return plain('id');
    if (kind === Kind.crdt_meta) return plain('meta');
    let k = 0;
    for (let c = store.firstChild[parent]; c >= 0 && c !== id; c = store.nextSibling[c])
      if (store.kind[c] === Kind.crdt_op) k++;
    return item('ops', k);
  }
  if (pk !== Kind.crdt_op || index.keyOf(id) >= 0) return null;
  const roles = OPERANDS[patchOpName(store.arg[parent]) ?? ''];
  if (!roles) return null;
  let i = 0;
  for (let c = store.firstChild[parent]; c >= 0 && c !== id; c = store.nextSibling[c])
    if (!(store.flags[c] & Flag.key)) i++;
  if (i < roles.fixed.length) return plain(roles.fixed[i]);
  if (!roles.repeated) return null;
  // An ins_vec value is named by the slot it fills (its id node's arg).
  if (roles.repeated === 'value') return item('value', store.arg[id]);
  return item(roles.repeated, i - roles.fixed.length);
}
