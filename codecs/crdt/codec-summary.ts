/**
 * The codec-independent summary of a json-joy model: built by walking the Model that
 * json-joy decoded (its root and node classes), so every codec yields the same tree.
 * Iterative: no recursion however deep the document nests. The view is rebuilt from the
 * tree (object keys set as own properties, so a `__proto__` key stays a key).
 */
import type { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { ArrNode, BinNode, ConNode, ObjNode, StrNode, ValNode, VecNode } from 'json-joy/lib/json-crdt/nodes/index.js';
import { Timestamp } from 'json-joy/lib/json-crdt-patch/clock/clock.js';
import type { ITimestampStruct } from 'json-joy/lib/json-crdt-patch/clock/types.js';
import { setOwn } from '../core/values.js';

export type CrdtNodeType = 'con' | 'val' | 'obj' | 'vec' | 'str' | 'bin' | 'arr';
export type CrdtClock = 'logical' | 'server';
export type CrdtCarrier = 'json' | 'cbor' | 'msgpack';

/** One RGA chunk of a str / bin / arr node, in document order. */
export interface CrdtChunkSummary {
  /** The id of the chunk's first element, 'sid.time'. */
  readonly id: string;
  /** Number of elements (UTF-16 units, bytes, array elements) the chunk spans. */
  readonly length: number;
  /** A tombstone: only its id and span remain. */
  readonly deleted: boolean;
  /** str: the chunk's text. */
  readonly text?: string;
  /** bin: the chunk's bytes. */
  readonly bytes?: Uint8Array;
  /** arr: the ids of the chunk's elements. */
  readonly nodes?: readonly string[];
}

export interface CrdtNodeSummary {
  /** 'sid.time' */
  readonly id: string;
  readonly type: CrdtNodeType;
  /** con: the constant (undefined allowed); a timestamp constant is `{ timestamp: 'sid.time' }`. */
  readonly value?: unknown;
  /** val: [child]; vec: its elements (null where unset); arr: the live elements in order. */
  readonly children?: readonly (CrdtNodeSummary | null)[];
  /** obj: its keys in json-joy's order, a deleted key pointing at an `undefined` con. */
  readonly entries?: readonly { readonly key: string; readonly node: CrdtNodeSummary }[];
  /** str / bin / arr: the RGA chunks, tombstones included. */
  readonly chunks?: readonly CrdtChunkSummary[];
  /** A vec that is an extension node: the extension's name. */
  readonly extension?: string;
}

export type CrdtClockTable =
  | readonly { readonly sid: number; readonly time: number }[]
  | { readonly serverTime: number };

export interface CrdtModelSummary {
  readonly kind: 'model';
  readonly codec: string;
  /** The frame format the codec's value was read from. */
  readonly carrier: CrdtCarrier;
  readonly clock: CrdtClock;
  /** The document view, as json-joy's `model.view()` would give it. */
  readonly view: unknown;
  /** The root's value node; null for an empty document. */
  readonly nodes: CrdtNodeSummary | null;
  /** Number of nodes in `nodes`. */
  readonly nodeCount: number;
  /** Ids of nodes the frame carries that the root does not reach (only the indexed codec can). */
  readonly detached: readonly string[];
  /**
   * Logical clock: the local session first (its next free time, as json-joy's clock keeps
   * it), then the peers the frame names, by session id. Server clock: the server time.
   */
  readonly clockTable: CrdtClockTable;
  readonly extensions: readonly { readonly nodeId: string; readonly name: string }[];
}

/** Extension ids (json-joy-extensions `ExtensionId`) to names. */
const EXTENSION_NAMES = ['mval', 'cnt', 'peritext', 'quill', 'prosemirror', 'slate'];

export const tsText = (ts: ITimestampStruct): string => `${ts.sid}.${ts.time}`;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Summarizes a decoded model. Throws (caught by the caller) on a dangling reference or a
 * node reached twice, which only malformed frames produce.
 */
export function summarizeModel(
  model: Model,
  codec: string,
  carrier: CrdtCarrier,
  clockTable?: CrdtClockTable,
): CrdtModelSummary {
  const seen = new Set<string>();
  const extensions: { nodeId: string; name: string }[] = [];
  const order: Mutable<CrdtNodeSummary>[] = [];
  // Timestamp constants: the view holds json-joy's Timestamp, the summary its text.
  const refs = new Map<CrdtNodeSummary, unknown>();
  const rootNode = model.root.val.sid === 0 ? undefined : model.index.get(model.root.val);
  if (model.root.val.sid !== 0 && !rootNode) throw new Error(`root points at missing node ${tsText(model.root.val)}`);

  const make = (node: unknown): Mutable<CrdtNodeSummary> => {
    const n = node as { id: ITimestampStruct };
    const id = tsText(n.id);
    if (seen.has(id)) throw new Error(`node ${id} is reached twice`);
    seen.add(id);
    let out: Mutable<CrdtNodeSummary>;
    if (node instanceof ConNode) {
      const v = node.val;
      out = { id, type: 'con', value: v instanceof Timestamp ? { timestamp: tsText(v) } : v };
      if (v instanceof Timestamp) refs.set(out, v);
    } else if (node instanceof ValNode) out = { id, type: 'val' };
    else if (node instanceof ObjNode) out = { id, type: 'obj' };
    else if (node instanceof VecNode) {
      out = { id, type: 'vec' };
      const ext = node.getExtId();
      if (ext >= 0) {
        out.extension = EXTENSION_NAMES[ext] ?? `ext-${ext}`;
        extensions.push({ nodeId: id, name: out.extension });
      }
    } else if (node instanceof StrNode) out = { id, type: 'str' };
    else if (node instanceof BinNode) out = { id, type: 'bin' };
    else if (node instanceof ArrNode) out = { id, type: 'arr' };
    else throw new Error(`unknown node class at ${id}`);
    order.push(out);
    return out;
  };
  const get = (ref: ITimestampStruct, from: string): unknown => {
    const child = model.index.get(ref);
    if (!child) throw new Error(`node ${from} points at missing node ${tsText(ref)}`);
    return child;
  };

  const root = rootNode ? make(rootNode) : null;
  // Pre-order with an explicit stack of (json-joy node, its summary).
  const stack: [unknown, Mutable<CrdtNodeSummary>][] = rootNode && root ? [[rootNode, root]] : [];
  while (stack.length) {
    const [node, out] = stack.pop()!;
    const pending: [unknown, Mutable<CrdtNodeSummary>][] = [];
    if (node instanceof ValNode) {
      const child = make(get(node.val, out.id));
      out.children = [child];
      pending.push([model.index.get(node.val), child]);
    } else if (node instanceof ObjNode) {
      const entries: { key: string; node: CrdtNodeSummary }[] = [];
      node.keys.forEach((ref, key) => {
        const child = get(ref, out.id);
        const s = make(child);
        entries.push({ key, node: s });
        pending.push([child, s]);
      });
      out.entries = entries;
    } else if (node instanceof VecNode) {
      const children: (CrdtNodeSummary | null)[] = [];
      for (const ref of node.elements) {
        if (!ref) {
          children.push(null);
          continue;
        }
        const child = get(ref, out.id);
        const s = make(child);
        children.push(s);
        pending.push([child, s]);
      }
      out.children = children;
    } else if (node instanceof StrNode || node instanceof BinNode || node instanceof ArrNode) {
      const chunks: CrdtChunkSummary[] = [];
      const children: CrdtNodeSummary[] = [];
      const rga = node as StrNode;
      for (
        let c = rga.first() as { id: ITimestampStruct; span: number; del: boolean; data: unknown } | undefined;
        c;
        c = rga.next(c as never)
      ) {
        const base = { id: tsText(c.id), length: c.span, deleted: c.del };
        if (c.del) chunks.push(base);
        else if (node instanceof StrNode) chunks.push({ ...base, text: c.data as string });
        else if (node instanceof BinNode) chunks.push({ ...base, bytes: c.data as Uint8Array });
        else {
          const ids = c.data as ITimestampStruct[];
          chunks.push({ ...base, nodes: ids.map(tsText) });
          for (const ref of ids) {
            const child = get(ref, out.id);
            const s = make(child);
            children.push(s);
            pending.push([child, s]);
          }
        }
      }
      out.chunks = chunks;
      if (node instanceof ArrNode) out.children = children;
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
  }

  const detached: string[] = [];
  model.index.forEach(({ v }) => {
    const ref = (v as { id: ITimestampStruct }).id;
    // The sidecar decoder indexes its placeholder for unset vec elements under the origin id.
    if (ref.sid !== 0 && !seen.has(tsText(ref))) detached.push(tsText(ref));
  });

  const server = model.clock.sid === 1;
  return {
    kind: 'model',
    codec,
    carrier,
    clock: server ? 'server' : 'logical',
    view: root ? viewOf(order, refs) : undefined,
    nodes: root,
    nodeCount: order.length,
    detached,
    clockTable: clockTable ?? (server ? { serverTime: model.clock.time } : clockEntries(model)),
    extensions,
  };
}

function clockEntries(model: Model): { sid: number; time: number }[] {
  const clock = model.clock;
  const peers: { sid: number; time: number }[] = [];
  clock.peers.forEach((p) => {
    // Session 0 is the system session (the sidecar codec lists it for unset vec slots).
    if (p.sid !== clock.sid && p.sid !== 0) peers.push({ sid: p.sid, time: p.time });
  });
  peers.sort((a, b) => a.sid - b.sid);
  return [{ sid: clock.sid, time: clock.time }, ...peers];
}

/** The view of the root summary (`order[0]`), children before parents (reverse pre-order). */
function viewOf(order: readonly CrdtNodeSummary[], refs: Map<CrdtNodeSummary, unknown>): unknown {
  const views = new Map<CrdtNodeSummary, unknown>();
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    let v: unknown;
    switch (n.type) {
      case 'con':
        v = refs.has(n) ? refs.get(n) : n.value;
        break;
      case 'val':
        v = views.get(n.children![0]!);
        break;
      case 'obj': {
        const obj: Record<string, unknown> = {};
        for (const e of n.entries!) {
          const ev = views.get(e.node);
          if (ev !== undefined) setOwn(obj, e.key, ev);
        }
        v = obj;
        break;
      }
      case 'vec':
        v = n.children!.map((c) => (c ? views.get(c) : undefined));
        break;
      case 'arr':
        v = n.children!.map((c) => views.get(c!));
        break;
      case 'str':
        v = n.chunks!.map((c) => c.text ?? '').join('');
        break;
      case 'bin': {
        const parts = n.chunks!.filter((c) => !c.deleted).map((c) => c.bytes!);
        const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
        let o = 0;
        for (const p of parts) {
          out.set(p, o);
          o += p.length;
        }
        v = out;
        break;
      }
    }
    views.set(n, v);
  }
  return views.get(order[0]);
}
