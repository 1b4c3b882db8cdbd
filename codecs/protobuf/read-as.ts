import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { LenReading } from './readings.js';
import { protobufData, protobufWalker } from './walker.js';

/**
 * "Read as" for the raw walker: a length-delimited field shown with another of its readings
 * (message, text, bytes, packed). The frame is indexed again with the choices applied, each
 * named by the offset where its field's value starts (node ids change, offsets do not):
 * after the raw walk the chosen node takes its new kind and its subtree is walked afresh.
 * Only readings the walker offered for that node are applied, so a re-read message parses.
 */
export type ReadAsChoices = ReadonlyMap<number, LenReading>;

const KIND: Record<LenReading, number> = { message: Kind.map, text: Kind.text, bytes: Kind.bytes, packed: Kind.array };

/** `protobuf:12=text,40=message` ⇄ choices: the form a frame's format choice takes in the app. */
export function parseReadAs(format: string): ReadAsChoices | null {
  if (!format.startsWith('protobuf:')) return null;
  const choices = new Map<number, LenReading>();
  for (const part of format.slice('protobuf:'.length).split(',')) {
    const [at, reading] = part.split('=');
    if (/^\d+$/.test(at) && reading in KIND) choices.set(Number(at), reading as LenReading);
  }
  return choices;
}

export function formatReadAs(choices: ReadAsChoices): string {
  return `protobuf:${[...choices]
    .sort((a, b) => a[0] - b[0])
    .map(([at, r]) => `${at}=${r}`)
    .join(',')}`;
}

export function readAsWalker(choices: ReadAsChoices): FormatWalker {
  return {
    ...protobufWalker,
    walk(index, node, depth) {
      protobufWalker.walk(index, node, depth);
      if (node < 0 && !index.error)
        for (const [at, reading] of [...choices].sort((a, b) => a[0] - b[0])) applyReading(index, at, reading);
    },
  };
}

function applyReading(index: SpanIndex, at: number, reading: LenReading): void {
  const id = index.nodeAt(at);
  const { store } = index;
  if (id <= 0 || store.start[id] !== at || store.head[id] === 0 || store.flags[id] & Flag.key) return;
  const offered = protobufData(index).readings.get(id);
  if (!offered?.includes(reading) || store.kind[id] === KIND[reading]) return;
  // The old subtree stays in the store, unreachable: the node's child list starts afresh.
  store.kind[id] = KIND[reading];
  store.firstChild[id] = -1;
  store.flags[id] &= ~Flag.expanded;
  store.setArg(id, reading === 'text' || reading === 'bytes' ? store.end[id] - store.start[id] - store.head[id] : 0);
  if (reading === 'message' || reading === 'packed') index.expand(id, 1);
}
