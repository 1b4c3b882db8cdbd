/**
 * The CRDT tab for a Yjs frame: the metadata / content split, the clocks (a state vector, or
 * each client's clock range in an update), one line per struct and per deleted range, and
 * the message as JSON.
 */
import { yjsByteSplit, yjsMessage, type SpanIndex, type YjsContent, type YjsStruct } from '../../../codecs/index.js';
import type { CrdtOpLine, CrdtSummary } from './api.js';
import { jsonText } from './json-text.js';

const PREVIEW_CHARS = 60;

function cut(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

function contentText(content: YjsContent): string {
  switch (content.type) {
    case 'string':
      return JSON.stringify(cut(content.value));
    case 'deleted':
      return `${content.length} deleted`;
    case 'binary':
      return `${content.value.length} bytes`;
    case 'type':
      return content.nodeName ? `${content.typeName} <${content.nodeName}>` : content.typeName;
    case 'format':
      return `${content.key}: ${cut(jsonText(content.value, PREVIEW_CHARS + 1, 0).text)}`;
    case 'doc':
      return `subdocument ${content.guid}`;
    case 'embed':
      return cut(jsonText(content.value, PREVIEW_CHARS + 1, 0).text);
    default:
      return cut(jsonText(content.values, PREVIEW_CHARS + 1, 0).text);
  }
}

function structLine(index: SpanIndex, s: YjsStruct): CrdtOpLine {
  const bytes = index.store.end[s.node] - index.store.start[s.node];
  const id = `${s.client}.${s.clock}`;
  if (s.struct !== 'item') return { nodeId: s.node, id, op: s.struct, target: '', detail: '', span: s.length, bytes };
  const target =
    typeof s.parent === 'string'
      ? `"${s.parent}"`
      : s.parent
        ? `${s.parent[0]}.${s.parent[1]}`
        : s.origin
          ? `after ${s.origin[0]}.${s.origin[1]}`
          : s.rightOrigin
            ? `before ${s.rightOrigin[0]}.${s.rightOrigin[1]}`
            : '';
  const key = s.parentSub === null ? '' : `${JSON.stringify(s.parentSub)} = `;
  return {
    nodeId: s.node,
    id,
    op: `insert ${s.content!.type}`,
    target,
    detail: key + contentText(s.content!),
    span: s.length,
    bytes,
  };
}

/** Null when the index holds no Yjs message. */
export function yjsSummary(index: SpanIndex, maxChars: number): CrdtSummary | null {
  const m = yjsMessage(index);
  if (!m) return null;
  const split = yjsByteSplit(index);
  const ops: CrdtOpLine[] = [];
  const clock: { sid: string; time: number }[] = [];
  if (m.stateVector) for (const [client, time] of m.stateVector) clock.push({ sid: String(client), time });
  for (const c of m.update?.clients ?? []) {
    const last = c.structs[c.structs.length - 1];
    clock.push({ sid: String(c.client), time: last ? last.clock + last.length : c.clock });
    for (const s of c.structs) ops.push(structLine(index, s));
  }
  const { store } = index;
  for (const d of m.update?.deleteSet ?? [])
    for (const r of d.ranges)
      ops.push({
        nodeId: r.node,
        id: `${d.client}.${r.clock}`,
        op: 'delete',
        target: '',
        detail: '',
        span: r.length,
        bytes: store.end[r.node] - store.start[r.node],
      });
  const view = {
    message: m.message,
    ...(m.step ? { step: m.step } : {}),
    ...(m.stateVector ? { stateVector: m.stateVector } : {}),
    ...(m.update
      ? {
          structs: m.update.clients.flatMap((c) => c.structs.map(({ node: _, ...s }) => s)),
          deleteSet: m.update.deleteSet.map((d) => ({
            client: d.client,
            ranges: d.ranges.map(({ clock, length }) => ({ clock, length })),
          })),
        }
      : {}),
    ...(m.awareness ? { awareness: m.awareness } : {}),
    ...(m.reason !== undefined ? { reason: m.reason } : {}),
  };
  return {
    kind: 'yjs',
    title: m.step ?? m.message,
    viewJson: jsonText(view, maxChars).text,
    clock,
    metadataBytes: split.metadataBytes,
    contentBytes: split.contentBytes,
    notes: index.error ? [index.error.message] : [],
    ...(m.update ? { ops } : {}),
  };
}
