/**
 * Seeded, deterministic json-joy test material (Node only: `seedPayloads` reads a file).
 * Test support for the CRDT codecs and walkers; nothing in the decode path imports it.
 *
 * API (stable):
 *
 * - `makeRng(seed: number): Rng` — codecs/core/rng.ts's mulberry32 generator, re-exported.
 * - `randomJson(rng, size = 20): unknown` — a random JSON value with about `size` nodes
 *   (objects, arrays, strings with some non-ASCII and astral characters, integers, floats,
 *   booleans, null). Never -0, NaN, Infinity, integers beyond 2^53 or a `__proto__` key.
 * - `editedModel(seed, { sessions = 3, edits = 40, clock = 'logical', size = 12,
 *   initial?, extensions = true }): { model, patches, sids }` — a document edited by
 *   `sessions` (2..5) peers. The first patch sets the root (`initial`, or an object with a
 *   `str`, `arr`, `obj`, `vec`, `bin` and random JSON; with `extensions` also a `cnt` and an
 *   `mval` extension node). Then each turn one peer (a `model.fork(sid)` of the start)
 *   makes 1..4 random edits (string inserts/deletes, binary inserts/deletes, array
 *   inserts/deletes/updates, object key sets/deletes, vec sets; `edits` in total), flushes
 *   them as one patch (`model.api.flush()`), and the patch is merged into `model`
 *   (`applyPatch`) in generation order. Logical clock: peers have distinct session ids and
 *   see each other's patches only when they sync (at random), so their edits are concurrent.
 *   Server clock: every peer syncs before its turn (the server orders the patches), so all
 *   ids are server ids (session 1). `patches` are in merge order, the first one builds the
 *   root; replaying them on an empty model (`Model.create(undefined, sid)` or
 *   `Model.withServerClock(undefined, 1)`) yields `model`. Editing never splits a surrogate
 *   pair, so every view is valid Unicode.
 * - `seedPayloads(): { file, name, data }[]` — the ten shared payloads from
 *   `/work/shared/payloads/seed-payloads.json` (resolved from the repository root).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import {
  ArrNode,
  BinNode,
  ObjNode,
  StrNode,
  ValNode,
  VecNode,
  type JsonNode,
} from 'json-joy/lib/json-crdt/nodes/index.js';
import type { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { s } from 'json-joy/lib/json-crdt-patch/schema.js';
import { cnt } from 'json-joy/lib/json-crdt-extensions/cnt/index.js';
import { mval } from 'json-joy/lib/json-crdt-extensions/mval/index.js';

import { makeRng, type Rng } from '../core/rng.js';

export { makeRng, type Rng };

const WORDS = [
  'alpha',
  'beta',
  'id',
  'name',
  'value',
  'items',
  'x',
  'y',
  'title',
  'done',
  'tags',
  'user',
  'ts',
  'ok',
  'data',
  'meta',
  'Zürich',
  'naïve',
  '日本',
  'emoji😀',
  '',
];
const CHARS = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-_éüßçñ€—日本語한글';
const ASTRAL = ['😀', '🎉', '💪', '𝄞', '🏀'];

export function randomText(rng: Rng, max = 12): string {
  const n = rng.int(max + 1);
  let out = '';
  for (let i = 0; i < n; i++) out += rng.bool(0.06) ? rng.pick(ASTRAL) : CHARS[rng.int(CHARS.length)];
  return out;
}

function randomKey(rng: Rng): string {
  return rng.bool(0.7) ? rng.pick(WORDS) : randomText(rng, 8);
}

function randomScalar(rng: Rng): unknown {
  switch (rng.int(8)) {
    case 0:
      return null;
    case 1:
      return rng.bool();
    case 2:
      return rng.int(24);
    case 3:
      return rng.range(-100000, 100000);
    case 4:
      return rng.range(-(2 ** 40), 2 ** 40);
    case 5: {
      const f = Math.round((rng() - 0.5) * 1e6) / 1000;
      return Object.is(f, -0) ? 0 : f;
    }
    default:
      return randomText(rng);
  }
}

/** A random JSON value with about `size` nodes. Iterative: containers are filled from a work list. */
export function randomJson(rng: Rng, size = 20): unknown {
  if (size <= 1) return randomScalar(rng);
  const root: unknown = rng.bool() ? {} : [];
  const open: unknown[] = [root];
  let budget = size - 1;
  while (budget > 0 && open.length) {
    const parent = open[rng.int(open.length)];
    let child: unknown;
    const r = rng();
    if (r < 0.15) child = {};
    else if (r < 0.27) child = [];
    else child = randomScalar(rng);
    if (Array.isArray(parent)) parent.push(child);
    else {
      const obj = parent as Record<string, unknown>;
      let key = randomKey(rng);
      for (let i = 0; key in obj && i < 5; i++) key = randomKey(rng) + i;
      obj[key] = child;
    }
    if (child !== null && typeof child === 'object') open.push(child);
    budget--;
  }
  return root;
}

function randomBytes(rng: Rng, max = 8): Uint8Array {
  const out = new Uint8Array(rng.range(1, max));
  for (let i = 0; i < out.length; i++) out[i] = rng.int(256);
  return out;
}

export interface EditedModelOptions {
  /** Number of peers, 2..5 (default 3). */
  readonly sessions?: number;
  /** Total number of edits after the initial patch (default 40). */
  readonly edits?: number;
  readonly clock?: 'logical' | 'server';
  /** Size of the random JSON part of the default initial document (default 12). */
  readonly size?: number;
  /** The initial root value instead of the default document. */
  readonly initial?: unknown;
  /** Include `cnt` and `mval` extension nodes in the default document (default true). */
  readonly extensions?: boolean;
}

export interface EditedModel {
  readonly model: Model;
  /** Every patch in merge order; the first sets the root. */
  readonly patches: Patch[];
  /** The peers' session ids (all 1 with the server clock). */
  readonly sids: number[];
}

const SID_BASE = 0x10000;
const SID_SPAN = 2 ** 53 - 1 - SID_BASE;

function randomSid(rng: Rng, taken: Set<number>): number {
  for (;;) {
    // A mix of small and full 53-bit session ids.
    const sid = rng.bool(0.3) ? SID_BASE + rng.int(1000) : SID_BASE + Math.floor(rng() * SID_SPAN);
    if (!taken.has(sid)) {
      taken.add(sid);
      return sid;
    }
  }
}

/** Nodes reachable from the root (extension data included), in a stable order. */
function reachable(model: Model): JsonNode[] {
  const out: JsonNode[] = [];
  const stack: JsonNode[] = [model.root.node()];
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    const kids: JsonNode[] = [];
    if (node instanceof ValNode) kids.push(node.node());
    else if (node instanceof ObjNode) node.nodes((child) => kids.push(child));
    else if (node instanceof VecNode) node.children((child) => kids.push(child));
    else if (node instanceof ArrNode) node.children((child) => kids.push(child));
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Moves a UTF-16 position off the middle of a surrogate pair. */
function safePos(text: string, pos: number): number {
  if (pos > 0 && pos < text.length && isHigh(text.charCodeAt(pos - 1)) && isLow(text.charCodeAt(pos))) return pos - 1;
  return pos;
}

function smallValue(rng: Rng): unknown {
  return rng.bool(0.7) ? randomScalar(rng) : randomJson(rng, rng.range(2, 6));
}

/** One random edit on `model` through its API; returns false when nothing fit. */
function randomEdit(rng: Rng, model: Model): boolean {
  const nodes = reachable(model).filter((n) => !(n instanceof ValNode) || n !== model.root.node());
  const editable = nodes.filter(
    (n) =>
      n instanceof StrNode ||
      n instanceof BinNode ||
      n instanceof ArrNode ||
      n instanceof ObjNode ||
      n instanceof VecNode,
  );
  if (!editable.length) return false;
  const node = rng.pick(editable);
  const api = model.api;
  if (node instanceof StrNode) {
    const str = api.wrap(node);
    const text = node.view();
    if (text.length && rng.bool(0.35)) {
      const pos = safePos(text, rng.int(text.length));
      const end = safePos(text, Math.min(text.length, pos + rng.range(1, 6)));
      if (end > pos) str.del(pos, end - pos);
      else return false;
    } else {
      const ins = randomText(rng, 10) || 'x';
      str.ins(safePos(text, rng.int(text.length + 1)), ins);
    }
  } else if (node instanceof BinNode) {
    const bin = api.wrap(node);
    const len = node.length();
    if (len && rng.bool(0.35)) {
      const pos = rng.int(len);
      bin.del(pos, Math.min(len - pos, rng.range(1, 4)));
    } else bin.ins(rng.int(len + 1), randomBytes(rng));
  } else if (node instanceof ArrNode) {
    const arr = api.wrap(node);
    const len = node.length();
    const r = rng();
    if (len && r < 0.3) {
      const pos = rng.int(len);
      arr.del(pos, Math.min(len - pos, rng.range(1, 3)));
    } else if (len && r < 0.4) {
      arr.upd(rng.int(len), smallValue(rng));
    } else {
      const values: unknown[] = [];
      for (let i = rng.range(1, 3); i > 0; i--) values.push(smallValue(rng));
      arr.ins(rng.int(len + 1), values);
    }
  } else if (node instanceof ObjNode) {
    const obj = api.wrap(node);
    const keys = [...node.keys.keys()].filter(
      (k) => node.get(k) !== undefined && (node.get(k) as { view(): unknown }).view() !== undefined,
    );
    if (keys.length && rng.bool(0.25)) obj.del([rng.pick(keys)]);
    else {
      const key = keys.length && rng.bool(0.3) ? rng.pick(keys) : randomKey(rng);
      if (key === '__proto__') return false;
      obj.set({ [key]: smallValue(rng) });
    }
  } else if (node instanceof VecNode) {
    // Leave extension headers alone: editing them would turn the node into a plain vec.
    if (node.getExtId() >= 0) return false;
    const vec = api.wrap(node);
    vec.set([[rng.int(node.elements.length + 1), smallValue(rng)]]);
  }
  return true;
}

function defaultDocument(rng: Rng, size: number, extensions: boolean): unknown {
  const doc: Record<string, unknown> = {
    title: randomText(rng, 16) || 'untitled',
    items: [randomScalar(rng), randomText(rng), randomJson(rng, 3)],
    settings: { theme: 'dark', size: rng.int(40), flags: [rng.bool(), rng.bool()] },
    pos: s.vec(s.con(rng.int(100)), s.con(rng.int(100)), s.str(randomText(rng, 6))),
    blob: randomBytes(rng, 12),
    data: randomJson(rng, size),
  };
  if (extensions) {
    doc.counter = cnt.new(rng.int(10));
    doc.choice = mval.new(randomText(rng, 5));
  }
  return doc;
}

export function editedModel(seed: number, options: EditedModelOptions = {}): EditedModel {
  const rng = makeRng(seed);
  const sessionCount = Math.max(2, Math.min(5, options.sessions ?? 3));
  const edits = options.edits ?? 40;
  const server = options.clock === 'server';
  const taken = new Set<number>();
  const model = server ? Model.withServerClock(undefined, 1) : Model.create(undefined, randomSid(rng, taken));
  const initial =
    options.initial !== undefined
      ? options.initial
      : defaultDocument(rng, options.size ?? 12, options.extensions ?? true);
  model.api.set(initial);
  const patches: Patch[] = [model.api.flush()];

  /** A peer's replica and how many of `patches` it has applied (its own included). */
  type Peer = { model: Model; seen: number };
  const peers: Peer[] = [];
  const sids: number[] = [];
  for (let i = 0; i < sessionCount; i++) {
    const sid = server ? 1 : randomSid(rng, taken);
    peers.push({ model: server ? model.fork() : model.fork(sid), seen: patches.length });
    sids.push(sid);
  }
  const owner = new Map<Patch, Peer>();
  const sync = (peer: Peer) => {
    for (; peer.seen < patches.length; peer.seen++) {
      const p = patches[peer.seen];
      if (owner.get(p) !== peer) peer.model.applyPatch(p);
    }
  };

  let done = 0;
  let guard = 0;
  while (done < edits && guard++ < edits * 20) {
    const peer = rng.pick(peers);
    if (server || rng.bool(0.4)) sync(peer);
    const n = Math.min(edits - done, rng.range(1, 4));
    let made = 0;
    for (let i = 0; i < n; i++) if (randomEdit(rng, peer.model)) made++;
    const patch = peer.model.api.flush();
    if (!patch.ops.length) continue;
    done += made;
    owner.set(patch, peer);
    patches.push(patch);
    model.applyPatch(patch);
    // The server acknowledges at once: the peer has seen everything up to its own patch.
    if (server) peer.seen = patches.length;
  }
  return { model, patches, sids };
}

export interface SeedPayload {
  readonly file: string;
  readonly name: string;
  readonly data: unknown;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let seedText: string | null = null;

/** The shared seed payloads (the file is read once; every call returns fresh objects). */
export function seedPayloads(): SeedPayload[] {
  seedText ??= readFileSync(path.resolve(repoRoot, '../shared/payloads/seed-payloads.json'), 'utf8');
  return JSON.parse(seedText) as SeedPayload[];
}
