/**
 * `npm run bench:crdt`: our validating json-joy span walkers vs json-joy's own decoders,
 * side by side in one run.
 *
 * - Models: `indexCrdtModel(bytes)` vs json-joy 17.67.0 `Model.fromBinary(bytes)`, for the
 *   ten seed payloads (../shared/payloads/seed-payloads.json, set as the root of a fresh
 *   model) and a ~1 MB collaboratively edited document, each in the logical-clock and the
 *   server-clock encoding.
 * - Patches: `indexCrdtPatch(bytes)` vs `Patch.fromBinary(bytes)`, for a typical small patch
 *   (one flush of 1..8 edits: the median-sized patch of the big document's history, per
 *   clock) and two big ones (importing a ~110 KB JSON document; an offline session of 2,500
 *   edits flushed at once).
 *
 * Reports the median time per call over interleaved rounds (each sample ~5 ms of calls,
 * after warm-up) and the ratio of our walker to json-joy's decoder in the same run
 * (target: <= 2.0x). Every payload is checked to index without error first.
 *
 * `npm run bench:crdt -- --write` also replaces the section between the
 * `<!-- bench:crdt:begin -->` / `<!-- bench:crdt:end -->` markers in docs/BENCHMARKS.md.
 * `--quick` measures fewer rounds.
 */
import { measure, fmtTime, type Contender } from './measure.js';
import { writeBenchmarkSection } from './report.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { indexCrdtModel } from '../crdt/model-walker.js';
import { indexCrdtPatch } from '../crdt/patch-walker.js';
import { makeRng, seedPayloads, type Rng } from '../crdt/corpus.js';
import { generateDocument } from './generate.js';

// Runs from codecs/bench (tsx) or dist/bench (bundled): the repository root is two levels up either way.
const repo = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const write = process.argv.includes('--write');
const quick = process.argv.includes('--quick');

type Clock = 'logical' | 'server';
type Group = 'Seed models' | 'Edited document' | 'Patches';

interface Payload {
  group: Group;
  name: string;
  kind: 'model' | 'patch';
  bytes: Uint8Array;
}

// ---------------------------------------------------------------------------------------
// The big edited document: a shared text document (title, paragraphs, comment threads,
// tags, per-user cursors) edited by many peers, each turn one flush of 1..8 edits.

const WORDS = [
  'the',
  'a',
  'frame',
  'socket',
  'binary',
  'offset',
  'patch',
  'model',
  'clock',
  'session',
  'merge',
  'review',
  'draft',
  'note',
  'and',
  'of',
  'to',
  'in',
  'is',
  'für',
  'Zürich',
  'naïve',
  'café',
  '日本語',
  '한글',
  'résumé',
  '🎉',
  '👍',
];

function words(rng: Rng, min: number, max: number): string {
  const n = rng.range(min, max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(WORDS));
  return out.join(' ');
}

/** Moves a UTF-16 position off the middle of a surrogate pair (so every view stays valid Unicode). */
function safePos(text: string, pos: number): number {
  if (pos > 0 && pos < text.length) {
    const hi = text.charCodeAt(pos - 1);
    const lo = text.charCodeAt(pos);
    if (hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) return pos - 1;
  }
  return pos;
}

const USERS = [
  'ana',
  'bo',
  'chen',
  'dee',
  'eli',
  'femi',
  'gus',
  'hana',
  'ivo',
  'jun',
  'kai',
  'lea',
  'mo',
  'noor',
  'oli',
  'pia',
];

/** One edit through `model`'s API (not flushed); returns false when nothing fit. */
function edit(rng: Rng, model: Model, user: string): boolean {
  const api = model.api;
  const paragraphs = api.arr(['paragraphs']);
  const comments = api.arr(['comments']);
  const nPar = paragraphs.length();
  const nCom = comments.length();
  const r = rng();
  if (r < 0.42 && nPar) {
    // Typing: a few words into a paragraph.
    const str = api.str(['paragraphs', rng.int(nPar)]);
    const text = str.view();
    str.ins(safePos(text, rng.int(text.length + 1)), (rng.bool() ? ' ' : '') + words(rng, 1, 6));
  } else if (r < 0.54 && nPar) {
    // Deleting a run of characters.
    const str = api.str(['paragraphs', rng.int(nPar)]);
    const text = str.view();
    if (!text.length) return false;
    const pos = safePos(text, rng.int(text.length));
    const end = safePos(text, Math.min(text.length, pos + rng.range(1, 24)));
    if (end <= pos) return false;
    str.del(pos, end - pos);
  } else if (r < 0.64 || !nPar) {
    // A new paragraph.
    paragraphs.ins(rng.int(nPar + 1), [words(rng, 4, 40)]);
  } else if (r < 0.66 && nPar > 4) {
    paragraphs.del(rng.int(nPar), 1);
  } else if (r < 0.76) {
    comments.ins(nCom, [
      { author: user, at: 1763750400000 + rng.int(1e9), text: words(rng, 2, 20), resolved: false, replies: [] },
    ]);
  } else if (r < 0.84 && nCom) {
    // A reply in a comment thread.
    const replies = api.arr(['comments', rng.int(nCom), 'replies']);
    replies.ins(replies.length(), [{ author: user, text: words(rng, 1, 12) }]);
  } else if (r < 0.88 && nCom) {
    api.obj(['comments', rng.int(nCom)]).set({ resolved: rng.bool() });
  } else if (r < 0.92) {
    const tag = rng.pick(WORDS);
    const tags = api.obj(['tags']);
    if (tags.has(tag) && rng.bool(0.3)) tags.del([tag]);
    else tags.set({ [tag]: rng.int(100) });
  } else if (r < 0.95) {
    const title = api.str(['title']);
    const text = title.view();
    title.ins(safePos(text, rng.int(text.length + 1)), ' ' + rng.pick(WORDS));
  } else {
    api.obj(['cursors']).set({ [user]: { paragraph: rng.int(Math.max(1, nPar)), offset: rng.int(200) } });
  }
  return true;
}

interface EditedDocument {
  model: Model;
  patches: Patch[];
  edits: number;
  sessions: number;
}

/**
 * Peers edit replicas (forks of the initial model) and merge each other's patches. Logical
 * clock: distinct sessions, peers sync at random (concurrent edits). Server clock: every
 * peer syncs before its turn and all ids are server ids. Stops once the model's binary
 * reaches `target` bytes.
 */
function editedDocument(clock: Clock, target: number, sessions: number, seed: number): EditedDocument {
  const rng = makeRng(seed);
  const server = clock === 'server';
  const model = server ? Model.withServerClock(undefined, 1) : Model.create(undefined, 0x10000 + seed);
  model.api.set({ title: 'Untitled', paragraphs: [words(rng, 5, 20)], comments: [], tags: {}, cursors: {} });
  const patches: Patch[] = [model.api.flush()];
  type Peer = { model: Model; seen: number; user: string };
  const peers: Peer[] = [];
  for (let i = 0; i < sessions; i++)
    peers.push({
      model: server ? model.fork() : model.fork(0x10000 + seed * 1000 + 1 + i),
      seen: patches.length,
      user: USERS[i % USERS.length],
    });
  const owner = new Map<Patch, Peer>();
  const sync = (peer: Peer) => {
    for (; peer.seen < patches.length; peer.seen++) {
      const p = patches[peer.seen];
      if (owner.get(p) !== peer) peer.model.applyPatch(p);
    }
  };
  let edits = 0;
  for (let turn = 1; ; turn++) {
    const peer = rng.pick(peers);
    if (server || rng.bool(0.5)) sync(peer);
    const n = rng.range(1, 8);
    let made = 0;
    for (let i = 0; i < n; i++) if (edit(rng, peer.model, peer.user)) made++;
    const patch = peer.model.api.flush();
    if (patch.ops.length) {
      edits += made;
      owner.set(patch, peer);
      patches.push(patch);
      model.applyPatch(patch);
      if (server) peer.seen = patches.length;
    }
    if (turn % 250 === 0 && model.toBinary().length >= target) break;
  }
  return { model, patches, edits, sessions };
}

// ---------------------------------------------------------------------------------------

const fmtBytes = (n: number) =>
  n >= 1 << 20 ? `${(n / 1048576).toFixed(2)} MB` : n >= 10240 ? `${(n / 1024).toFixed(0)} KB` : `${n} bytes`;

function buildPayloads(): { list: Payload[]; notes: string[] } {
  const list: Payload[] = [];
  const notes: string[] = [];
  const seeds = seedPayloads();
  for (const clock of ['logical', 'server'] as const) {
    seeds.forEach((seed, i) => {
      const model = clock === 'server' ? Model.withServerClock(undefined, 1) : Model.create(undefined, 0x10000 + i);
      model.api.set(seed.data);
      list.push({ group: 'Seed models', kind: 'model', name: `${seed.name} (${clock})`, bytes: model.toBinary() });
    });
  }

  const t0 = performance.now();
  const smallPatches: Payload[] = [];
  for (const clock of ['logical', 'server'] as const) {
    const doc = editedDocument(clock, 1 << 20, 16, 3);
    const bytes = doc.model.toBinary();
    const view = JSON.stringify(doc.model.view());
    list.push({
      group: 'Edited document',
      kind: 'model',
      name: `Edited document (${clock}): ${doc.edits} edits, ${doc.patches.length} patches`,
      bytes,
    });
    notes.push(
      `Edited document, ${clock} clock: ${bytes.length} bytes (${fmtBytes(bytes.length)}) after ${doc.edits} edits in ${doc.patches.length} patches by ${doc.sessions} peers` +
        `${clock === 'server' ? ' (all ids server ids)' : ` (${doc.sessions + 1} sessions in the clock table)`}; its JSON view is ${view.length} bytes.`,
    );
    // The typical patch: the median-sized one of the history (one flush of 1..8 edits).
    const encoded = doc.patches.slice(1).map((p) => ({ p, bytes: p.toBinary() }));
    encoded.sort((a, b) => a.bytes.length - b.bytes.length);
    const median = encoded[encoded.length >> 1];
    smallPatches.push({
      group: 'Patches',
      kind: 'patch',
      name: `Typical patch (${clock}): ${median.p.ops.length} ops`,
      bytes: median.bytes,
    });
  }
  list.push(...smallPatches);

  // Big patch 1: importing a document — the ten seed payloads and a generated event feed
  // (codecs/bench/generate.ts) set as one object.
  const imported = { ...Object.fromEntries(seeds.map((s) => [s.file, s.data])), feed: generateDocument(48 << 10) };
  const importing = Model.create(undefined, 0x10000 + 77);
  importing.api.set(imported);
  const importPatch = importing.api.flush();
  const importJson = JSON.stringify(imported).length;
  list.push({
    group: 'Patches',
    kind: 'patch',
    name: `Big patch: import of a ${Math.round(importJson / 1024)} KB JSON document, ${importPatch.ops.length} ops`,
    bytes: importPatch.toBinary(),
  });

  // Big patch 2: an offline session — one peer edits a fresh copy of a document and
  // flushes everything at once.
  const base = editedDocument('logical', 64 << 10, 4, 11).model;
  const offline = base.fork(0x10000 + 999);
  const rng = makeRng(99);
  let offlineEdits = 0;
  for (let i = 0; i < 2500; i++) if (edit(rng, offline, 'zoe')) offlineEdits++;
  const offlinePatch = offline.api.flush();
  list.push({
    group: 'Patches',
    kind: 'patch',
    name: `Big patch: offline session, ${offlineEdits} edits, ${offlinePatch.ops.length} ops`,
    bytes: offlinePatch.toBinary(),
  });
  console.error(`payloads generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { list, notes };
}

// ---------------------------------------------------------------------------------------

const modelContenders: Contender[] = [
  { name: 'json-joy', run: (b) => Model.fromBinary(b) },
  { name: 'ours', run: (b) => indexCrdtModel(b) },
];
const patchContenders: Contender[] = [
  { name: 'json-joy', run: (b) => Patch.fromBinary(b) },
  { name: 'ours', run: (b) => indexCrdtPatch(b) },
];

/** Rounds per payload: small payloads are cheap to sample, and more rounds steady their medians. */
function roundsFor(bytes: Uint8Array): number {
  return quick ? 5 : bytes.length > 256 << 10 ? 21 : 41;
}

const { list, notes } = buildPayloads();

// Both decoders must accept every payload, or the comparison means nothing.
for (const p of list) {
  const index = p.kind === 'model' ? indexCrdtModel(p.bytes) : indexCrdtPatch(p.bytes);
  if (!index.ok) throw new Error(`${p.name}: our walker rejects it: ${index.error?.message}`);
  if (index.warnings.length)
    console.error(`${p.name}: ${index.warnings.length} warning(s), first: ${index.warnings[0].message}`);
  if (p.kind === 'model') Model.fromBinary(p.bytes);
  else Patch.fromBinary(p.bytes);
}

// A short global warm-up so the first (small) payloads are not measured against colder code.
for (let round = 0; round < 3; round++) {
  for (const p of list) {
    const active = p.kind === 'model' ? modelContenders : patchContenders;
    const reps = Math.max(1, Math.min(200, Math.round(200_000 / p.bytes.length)));
    for (const c of active) for (let k = 0; k < reps; k++) c.run(p.bytes);
  }
}

const TARGET = 2;
const rows: string[] = [];
const header = ['Payload', 'bytes', 'json-joy decode', 'our walker', 'ours / json-joy'];
rows.push(`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
const groups = new Map<Group, { worst: number; misses: string[]; count: number }>();
// With --expose-gc (the npm script passes it), each payload starts from a collected heap, so
// garbage from payload generation or the previous payload is not collected inside a sample.
const collect = (globalThis as { gc?: () => void }).gc;
for (const p of list) {
  collect?.();
  const [theirs, ours] = measure(p.bytes, p.kind === 'model' ? modelContenders : patchContenders, roundsFor(p.bytes));
  const ratio = ours / theirs;
  const g = groups.get(p.group) ?? { worst: 0, misses: [], count: 0 };
  g.worst = Math.max(g.worst, ratio);
  g.count++;
  if (ratio > TARGET) g.misses.push(`${p.name} (${ratio.toFixed(2)}x)`);
  groups.set(p.group, g);
  rows.push(`| ${p.name} | ${p.bytes.length} | ${fmtTime(theirs)} | ${fmtTime(ours)} | ${ratio.toFixed(2)}x |`);
  console.error(`${p.name}: ${ratio.toFixed(2)}x of json-joy (${fmtTime(ours)} vs ${fmtTime(theirs)})`);
}

const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
const verdict = [...groups]
  .map(
    ([name, g]) =>
      `- ${name} (target <= ${TARGET.toFixed(1)}x json-joy's decode): worst ${g.worst.toFixed(2)}x; ${g.misses.length ? `missed on ${g.misses.length} of ${g.count}: ${g.misses.join(', ')}` : `met on all ${g.count}`}.`,
  )
  .join('\n');
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}. Median time per call; ratios are ours to json-joy 17.67.0 (\`Model.fromBinary\` / \`Patch.fromBinary\`) in the same run.`,
  '',
  ...rows,
  '',
  ...notes.map((n) => `- ${n}`),
  '',
  verdict,
].join('\n');
console.log(table);

if (write) writeBenchmarkSection(repo, 'crdt', table);
