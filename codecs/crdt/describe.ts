import { Flag, Kind, kindName } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { hex } from '../core/diagnostic.js';
import { crdtIdOf, crdtSpanOf, formatId } from './annotations.js';
import { nodeByteSplit, crdtExtensionOf } from './model-value.js';
import { patchOpName } from './patch-opcodes.js';
import { modelPreview } from './preview.js';

/**
 * How CRDT nodes read in the tree, the CLI and `--json`: the json-joy type with the node's
 * id (`obj 3.17`), what it holds, and for every node its metadata / content byte split.
 */

/** `obj 3.17 (2 keys)`, `str 1.5 (3 chunks)`, `chunk 1.9 ×4`, `tombstone 2.3 ×2`, `ins_str 5.12`. */
export function describeCrdt(index: SpanIndex, id: number): string {
  const { store } = index;
  const kind = store.kind[id];
  const name =
    kind === Kind.crdt_op
      ? (patchOpName(store.arg[id]) ?? `op ${store.arg[id]}`)
      : kindName(kind).replace(/^crdt_/, '');
  const crdtId = crdtIdOf(index, id);
  const idText = crdtId ? ` ${formatId(crdtId)}` : '';
  const span = crdtSpanOf(index, id);
  switch (kind) {
    case Kind.crdt_obj:
      return `obj${idText} (${store.arg[id]} ${store.arg[id] === 1 ? 'key' : 'keys'})`;
    case Kind.crdt_vec: {
      const ext = crdtExtensionOf(index, id);
      return `vec${idText} (${store.arg[id]} slots)${ext ? ` extension ${ext}` : ''}`;
    }
    case Kind.crdt_str:
    case Kind.crdt_bin:
    case Kind.crdt_arr:
      return `${name}${idText} (${store.arg[id]} ${store.arg[id] === 1 ? 'chunk' : 'chunks'})`;
    case Kind.crdt_chunk:
    case Kind.crdt_tombstone:
      return `${name}${idText}${span !== null ? ` ×${span}` : ''}`;
    case Kind.crdt_content:
      return store.flags[id] & Flag.key ? 'key' : 'content';
    case Kind.crdt_clock:
      return 'clock';
    case Kind.crdt_clock_entry:
      return `session${idText}`;
    case Kind.crdt_model:
      return 'model';
    case Kind.crdt_patch:
      return `patch (${store.arg[id]} ${store.arg[id] === 1 ? 'op' : 'ops'})`;
    default:
      return `${name}${idText}`;
  }
}

/** The node's value in one line: views as JSON, content as text. */
export function previewCrdt(index: SpanIndex, id: number, max: number): string {
  const { store } = index;
  const kind = store.kind[id];
  if (store.flags[id] & Flag.incomplete) return '…';
  if (
    kind === Kind.crdt_clock ||
    kind === Kind.crdt_clock_entry ||
    kind === Kind.crdt_id ||
    kind === Kind.crdt_tombstone
  )
    return '';
  // Model trees nest without bound: their previews are built once, bottom up (preview.ts).
  // A patch is a flat list of operations; its values are small.
  if (index.format === 'crdt-model') return modelPreview(index, id, max);
  let text: string;
  try {
    text = jsonText(index.value(id), max);
  } catch {
    text = '';
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

function jsonText(value: unknown, max: number): string {
  if (value === undefined) return 'undefined';
  if (value instanceof Uint8Array) return `h'${hex(value, 0, Math.min(value.length, max))}'`;
  const s = JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? `h'${hex(v, 0, Math.min(v.length, 16))}'` : v,
  );
  return s ?? String(value);
}

/** Extra `--json` fields of a CRDT node: id, span, extension, and its metadata / content bytes. */
export function crdtDetails(index: SpanIndex, id: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const crdtId = crdtIdOf(index, id);
  if (crdtId) out.id = formatId(crdtId);
  const span = crdtSpanOf(index, id);
  if (span !== null) out.span = span;
  if (index.store.kind[id] === Kind.crdt_op) out.op = patchOpName(index.store.arg[id]) ?? null;
  if (index.store.kind[id] === Kind.crdt_vec) {
    const ext = crdtExtensionOf(index, id);
    if (ext) out.extension = ext;
  }
  const split = nodeByteSplit(index, id);
  out.metadataBytes = split.metadata;
  out.contentBytes = split.content;
  return out;
}
