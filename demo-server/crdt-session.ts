/**
 * A json-joy document edited by two simulated clients, Alice and Bob. The server keeps the
 * merged model: `snapshot()` is its structural binary (`Model.toBinary()`), `nextPatch()`
 * lets one client make a few edits on its own replica and returns the flushed patch
 * (`Patch.toBinary()`). Clients see each other's patches only when they sync, which they do
 * at random, so their edits are genuinely concurrent. Session ids are fixed: same Rng, same
 * bytes.
 */
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import type { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { s } from 'json-joy/lib/json-crdt-patch/schema.js';
import type { Rng } from './rng.js';

const SERVER_SID = 0x10001;
const CLIENTS = [
  { name: 'alice', sid: 0x2a11ce },
  { name: 'bob', sid: 0x2b0b },
] as const;

/** Keep the document a readable size however long the demo runs. */
const MAX_NOTES_CHARS = 1200;
const MAX_TODOS = 10;

const WORDS = [
  'ship',
  'the',
  'demo',
  'server',
  'review',
  'CRDT',
  'patch',
  'bytes',
  'frame',
  'inspector',
  'fix',
  'flaky',
  'test',
  'naïve',
  'Zürich',
  '日本',
  '🎉',
];
const TODO_TEXTS = [
  'Write release notes',
  'Fix reconnect bug',
  'Profile 1 MB decode',
  'Update screenshots',
  'Review PR #17',
  'Book the demo room',
];

/**
 * Moves a UTF-16 index off the middle of a surrogate pair (the notes contain emoji): a
 * half-deleted pair would leave a lone surrogate that no UTF-8 frame can carry.
 */
function safeIndex(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return index > 0 && index < text.length && code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

interface SimulatedClient {
  readonly name: string;
  readonly model: Model;
  /** This client's patches the other client has not applied yet. */
  outbox: Patch[];
}

export interface CrdtEdit {
  readonly client: string;
  readonly patch: Uint8Array;
  /** What the edit did, for the frame label. */
  readonly summary: string;
}

export class CrdtSession {
  private readonly merged: Model;
  private readonly clients: SimulatedClient[];

  constructor(private readonly rng: Rng) {
    this.merged = Model.create(undefined, SERVER_SID);
    this.merged.api.set({
      title: s.str('Sprint 12 planning'),
      notes: s.str('Agenda: '),
      todos: s.arr([s.obj({ text: s.str('Ship the demo server'), done: s.con(false) })]),
      cursors: s.obj({}),
      owner: s.con('alice'),
    });
    this.merged.api.flush(); // the initial document is part of the first snapshot, not a patch frame
    this.clients = CLIENTS.map(({ name, sid }) => ({ name, model: this.merged.fork(sid), outbox: [] }));
  }

  /** The merged document as json-joy structural binary. */
  snapshot(): Uint8Array {
    return this.merged.toBinary();
  }

  /** One client edits (1–3 operations) and flushes; the patch is merged on the server. */
  nextPatch(): CrdtEdit {
    const rng = this.rng;
    const index = rng.int(this.clients.length);
    const client = this.clients[index];
    const other = this.clients[1 - index];
    if (rng.bool(0.6)) this.sync(client, other);
    const summaries: string[] = [];
    // At least one edit must land: a patch without operations cannot be encoded.
    for (let n = rng.range(1, 3); n > 0 || !summaries.length; n--) {
      const summary = this.edit(client);
      if (summary) summaries.push(summary);
    }
    const patch = client.model.api.flush();
    client.outbox.push(patch);
    this.merged.applyPatch(patch);
    return { client: client.name, patch: patch.toBinary(), summary: summaries.join(', ') };
  }

  /** `client` catches up with `other`; delivered patches are dropped so memory stays flat. */
  private sync(client: SimulatedClient, other: SimulatedClient): void {
    for (const patch of other.outbox) client.model.applyPatch(patch);
    other.outbox = [];
  }

  /** One random edit on the client's replica; returns what it did, or null when nothing fit. */
  private edit(client: SimulatedClient): string | null {
    const rng = this.rng;
    const api = client.model.api;
    const view = client.model.view() as { title: string; notes: string; todos: { text: string; done: boolean }[] };
    const choice = rng.int(10);
    if (choice < 4) {
      const notes = api.str(['notes']);
      if (view.notes.length > MAX_NOTES_CHARS) {
        notes.del(0, safeIndex(view.notes, 200));
        return 'trim notes';
      }
      // Typing happens at the end mostly, sometimes in the middle (a safe position: after a space).
      const spaces = [...view.notes.matchAll(/ /g)].map((match) => (match.index ?? 0) + 1);
      const position = rng.bool(0.7) || !spaces.length ? view.notes.length : rng.pick(spaces);
      notes.ins(position, rng.pick(WORDS) + ' ');
      return 'type in notes';
    }
    if (choice < 5 && view.notes.length > 10) {
      const start = safeIndex(view.notes, rng.int(view.notes.length - 5));
      const end = safeIndex(view.notes, start + rng.range(1, 4));
      if (end <= start) return null;
      api.str(['notes']).del(start, end - start);
      return 'delete in notes';
    }
    if (choice < 7) {
      const todos = api.arr(['todos']);
      if (view.todos.length >= MAX_TODOS) {
        todos.del(0, 1);
        return 'remove todo';
      }
      todos.ins(view.todos.length, [s.obj({ text: s.str(rng.pick(TODO_TEXTS)), done: s.con(false) })]);
      return 'add todo';
    }
    if (choice < 8 && view.todos.length) {
      const at = rng.int(view.todos.length);
      api.obj(['todos', at]).set({ done: !view.todos[at].done });
      return 'toggle todo';
    }
    if (choice < 9) {
      api.obj(['cursors']).set({ [client.name]: rng.int(view.notes.length + 1) });
      return 'move cursor';
    }
    const title = api.str(['title']);
    title.del(0, view.title.length);
    title.ins(0, `Sprint ${rng.range(12, 40)} planning`);
    return 'rename title';
  }
}
