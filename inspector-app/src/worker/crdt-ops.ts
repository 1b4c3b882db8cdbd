/**
 * The CRDT tab's operation list: one line per patch operation (id `sid.time`, op name, the
 * node it targets, what it carries, its bytes), read from the patch's span index instead of
 * json-joy's four-lines-per-id verbose JSON.
 */
import { crdtIdOf, crdtSpanOf, Flag, formatId, Kind, previewValue, type SpanIndex } from '../../../codecs/index.js';
import { patchOpName } from '../../../codecs/crdt/patch-walker.js';
import type { CrdtOpLine } from './api.js';

/** Ops that name the node they change first (their `obj` operand). */
const TARGETED = new Set(['ins_val', 'ins_obj', 'ins_vec', 'ins_str', 'ins_bin', 'ins_arr', 'upd_arr', 'del']);

function idText(index: SpanIndex, id: number): string {
  const crdtId = crdtIdOf(index, id);
  return crdtId ? formatId(crdtId) : '?';
}

/** What an operation carries, in one line (operands after the target). */
function detailOf(index: SpanIndex, op: string, operands: readonly number[], max: number): string {
  const { store } = index;
  const rest = TARGETED.has(op) ? operands.slice(1) : operands;
  const parts: string[] = [];
  switch (op) {
    case 'ins_str':
    case 'ins_bin': {
      const [after, content] = rest;
      if (content !== undefined) parts.push(previewValue(index, content, max));
      if (after !== undefined) parts.push(`after ${idText(index, after)}`);
      break;
    }
    case 'ins_arr': {
      const [after, ...values] = rest;
      parts.push(values.map((v) => idText(index, v)).join(', '));
      if (after !== undefined) parts.push(`after ${idText(index, after)}`);
      break;
    }
    case 'ins_obj': {
      const entries: string[] = [];
      for (let i = 0; i + 1 < rest.length; i += 2)
        entries.push(`${String(index.value(rest[i]))} → ${idText(index, rest[i + 1])}`);
      parts.push(entries.join(', '));
      break;
    }
    case 'ins_vec':
      parts.push(rest.map((v) => `[${store.arg[v]}] → ${idText(index, v)}`).join(', '));
      break;
    case 'ins_val':
      if (rest[0] !== undefined) parts.push(`→ ${idText(index, rest[0])}`);
      break;
    case 'upd_arr':
      if (rest.length >= 2) parts.push(`ref ${idText(index, rest[0])} → ${idText(index, rest[1])}`);
      break;
    case 'del':
      parts.push(rest.map((r) => `${idText(index, r)} ×${crdtSpanOf(index, r) ?? store.arg[r]}`).join(', '));
      break;
    case 'new_con':
      parts.push(
        rest.length
          ? store.kind[rest[0]] === Kind.crdt_id
            ? `timestamp ${idText(index, rest[0])}`
            : previewValue(index, rest[0], max)
          : 'undefined',
      );
      break;
  }
  const text = parts.filter(Boolean).join(' ');
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** One line per operation of a patch index (already expanded), in order. */
export function crdtOpLines(index: SpanIndex, max = 80): CrdtOpLine[] {
  const { store } = index;
  const out: CrdtOpLine[] = [];
  if (index.format !== 'crdt-patch' || index.root < 0) return out;
  for (let c = store.firstChild[index.root]; c >= 0; c = store.nextSibling[c]) {
    if (store.kind[c] !== Kind.crdt_op) continue;
    const op = patchOpName(store.arg[c]) ?? `op ${store.arg[c]}`;
    const operands: number[] = [];
    for (let o = store.firstChild[c]; o >= 0; o = store.nextSibling[o]) operands.push(o);
    const incomplete = (store.flags[c] & Flag.incomplete) !== 0;
    const span = crdtSpanOf(index, c);
    out.push({
      nodeId: c,
      id: idText(index, c),
      op,
      target: TARGETED.has(op) && operands.length ? idText(index, operands[0]) : '',
      detail:
        (incomplete ? '(incomplete) ' : '') +
        (op === 'nop' ? `skips ${span ?? 1} ids` : detailOf(index, op, operands, max)),
      span: span ?? 1,
      bytes: store.end[c] - store.start[c],
    });
  }
  return out;
}
