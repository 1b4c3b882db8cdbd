import { Kind } from '../core/kinds.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { LebCursor, LebStop, lebWalker, type LebData } from '../protocols/leb-cursor.js';
import { readStateVector, readUpdateV1, type YjsId, type YjsUpdate } from './update-v1.js';
import { readVarUint, lib0Value } from './lib0-read.js';
import { grouped } from '../core/grouped.js';

/**
 * y-protocols messages as y-websocket sends them (a varUint message type, then its body):
 * - 0 sync: a varUint step, then a varUint8Array: step 1 a state vector, step 2 and update a
 *   Yjs update (v1: structs per client, then the delete set; update-v1.ts);
 * - 1 awareness: a varUint8Array of (client, clock, JSON state) entries;
 * - 2 auth: 0 (permission denied) and a reason;
 * - 3 query awareness: nothing more.
 * Every byte is a node's: lengths are their buffer's head, varUints and strings are leaves,
 * an awareness state opens as JSON. Update v2 (its columns are not per struct) is not read:
 * an update that only v2 reads stops with an error saying so.
 */
export const YJS_MESSAGES = ['sync', 'awareness', 'auth', 'query awareness'] as const;
export const YJS_SYNC_STEPS = ['sync step 1', 'sync step 2', 'update'] as const;

export interface YjsMessage {
  readonly message: (typeof YJS_MESSAGES)[number];
  readonly step?: (typeof YJS_SYNC_STEPS)[number];
  readonly stateVector?: readonly YjsId[];
  readonly update?: YjsUpdate;
  readonly awareness?: readonly { readonly client: number; readonly clock: number; readonly state: unknown }[];
  readonly reason?: string;
}

interface YjsData extends LebData {
  message: YjsMessage | null;
  contentBytes: number;
}

function yjsData(index: SpanIndex): YjsData | null {
  const data = index.formatData as YjsData | null;
  return data && 'contentBytes' in data ? data : null;
}

/** The message a Yjs frame holds (as far as it read), or null for another format's index. */
export function yjsMessage(index: SpanIndex): YjsMessage | null {
  return yjsData(index)?.message ?? null;
}

/** Total, content and metadata bytes of a Yjs frame: content is text, JSON, binary, any values and map keys. */
export function yjsByteSplit(index: SpanIndex): { totalBytes: number; contentBytes: number; metadataBytes: number } {
  const content = yjsData(index)?.contentBytes ?? 0;
  const total = index.bytes.length;
  return { totalBytes: total, contentBytes: content, metadataBytes: total - content };
}

/** Reads the whole frame; on an error the open containers are marked incomplete and what was read stays. */
function walkWith(index: SpanIndex, read: (cursor: LebCursor, message: { value: YjsMessage | null }) => void): void {
  const cursor = new LebCursor(index);
  const data = index.formatData as YjsData;
  const holder: { value: YjsMessage | null } = { value: null };
  try {
    read(cursor, holder);
  } catch (e) {
    if (!(e instanceof LebStop)) throw e;
    cursor.stopped();
  }
  data.message = holder.value;
  data.contentBytes = cursor.contentBytes;
}

function walkMessage(cursor: LebCursor, holder: { value: YjsMessage | null }): void {
  const { bytes } = cursor;
  const root = cursor.openHere(-1, null, Kind.map);
  if (bytes.length === 0) cursor.fail('empty-input', 0, 'an empty frame is no y-protocols message');
  const type = cursor.uint('the message type');
  const message = YJS_MESSAGES[type];
  if (message === undefined)
    cursor.fail(
      'invalid-byte',
      0,
      `a y-protocols message starts with 0 (sync), 1 (awareness), 2 (auth) or 3 (query awareness), not ${type}`,
    );
  cursor.named(root, 'message', 0, message);
  holder.value = { message };
  if (message === 'sync') {
    const at = cursor.pos;
    const s = cursor.uint('the sync step');
    const step = YJS_SYNC_STEPS[s];
    if (step === undefined) cursor.fail('invalid-byte', at, `a sync message's step is 0, 1 or 2, not ${s}`);
    cursor.named(root, 'step', at, step);
    holder.value = { message, step };
    const start = cursor.pos;
    const n = cursor.uint(step === 'sync step 1' ? "the state vector's length" : "the update's length");
    if (step === 'sync step 1') {
      const sv = cursor.openAt(root, 'stateVector', Kind.map, start, 'state vector');
      cursor.within(start, n, 'the state vector', () => {
        holder.value = { message, step, stateVector: readStateVector(cursor, sv) };
      });
      cursor.close(sv);
    } else {
      const v2 = cursor.pos + n <= cursor.limit && onlyV2Reads(bytes.subarray(cursor.pos, cursor.pos + n));
      const update = cursor.openAt(root, 'update', Kind.map, start, v2 ? 'update v2' : 'update v1');
      if (v2) {
        cursor.leaf(update, 'v2', cursor.pos, cursor.pos + n, bytes.slice(cursor.pos, cursor.pos + n), Kind.bytes);
        cursor.pos += n;
        cursor.fail('unsupported-format', start, 'update v2 (columns per field, not per struct) is not read');
      }
      cursor.within(start, n, 'the update', () => {
        holder.value = { message, step, update: readUpdateV1(cursor, update) };
      });
      cursor.close(update);
    }
  } else if (message === 'awareness') {
    const start = cursor.pos;
    const n = cursor.uint("the awareness update's length");
    const aw = cursor.openAt(root, 'awareness', Kind.map, start, 'awareness update');
    cursor.within(start, n, 'the awareness update', () => {
      holder.value = { message, awareness: readAwareness(cursor, aw) };
    });
    cursor.close(aw);
  } else if (message === 'auth') {
    const at = cursor.pos;
    const reason = cursor.uint('the auth message type');
    if (reason !== 0) cursor.fail('invalid-byte', at, `an auth message is 0 (permission denied), not ${reason}`);
    cursor.named(root, 'auth', at, 'permission denied');
    holder.value = { message, reason: cursor.stringField(root, 'reason', 'the reason', false).value };
  }
  if (cursor.pos !== bytes.length)
    cursor.fail(
      'trailing-bytes',
      cursor.pos,
      `${grouped(bytes.length - cursor.pos)} byte${bytes.length - cursor.pos === 1 ? '' : 's'} after the ${message} message`,
    );
  cursor.close(root);
}

function readAwareness(cursor: LebCursor, parent: number): YjsMessage['awareness'] {
  const states: { client: number; clock: number; state: unknown }[] = [];
  const n = cursor.uintField(parent, 'clientCount', 'the number of states');
  cursor.length(cursor.pos, n, 'the awareness states');
  const list = cursor.openHere(parent, 'states', Kind.array);
  for (let i = 0; i < n; i++) {
    const entry = cursor.openHere(list, null, Kind.map);
    const client = cursor.uintField(entry, 'client');
    const clock = cursor.uintField(entry, 'clock');
    const at = cursor.pos;
    const length = cursor.length(at, cursor.uintField(entry, 'stateLength', "the state's length"), 'the state');
    const raw = new TextDecoder('utf-8', { fatal: true });
    let state: unknown;
    try {
      state = JSON.parse(raw.decode(cursor.bytes.subarray(cursor.pos, cursor.pos + length)));
    } catch {
      cursor.fail('invalid-token', cursor.pos, `client ${client}'s awareness state is not JSON text`);
    }
    cursor.payload(entry, 'state', cursor.pos, cursor.pos + length, 'json');
    cursor.pos += length;
    cursor.labels.set(entry, `client ${client} clock ${clock}${state === null ? ' (gone)' : ''}`);
    cursor.close(entry);
    states.push({ client, clock, state });
  }
  cursor.close(list);
  return states;
}

/** A bare update (no y-protocols message around it), for telling v1 from v2. */
function walkBareUpdate(cursor: LebCursor, holder: { value: YjsMessage | null }): void {
  const root = cursor.openHere(-1, null, Kind.map);
  holder.value = { message: 'sync', step: 'update', update: readUpdateV1(cursor, root) };
  if (cursor.pos !== cursor.bytes.length) cursor.fail('trailing-bytes', cursor.pos, 'bytes after the update');
  cursor.close(root);
}

/**
 * Update v2 opens with a feature-flag byte 0 and nine length-prefixed columns that fit its
 * bytes; taken as v2 when that holds and the v1 reading fails.
 */
function onlyV2Reads(update: Uint8Array): boolean {
  if (update.length < 11 || update[0] !== 0) return false;
  let p = 1;
  for (let i = 0; i < 9; i++) {
    const end = readVarUint(update, p, update.length);
    if (end < 0 || lib0Value > update.length - end) return false;
    p = end + lib0Value;
  }
  if (p >= update.length) return false;
  return new SpanIndex(update, bareUpdateWalker).error !== null;
}

const describeRoot = (index: SpanIndex): string => {
  const m = yjsMessage(index);
  return m ? `yjs ${m.step ?? m.message}` : 'yjs';
};

const bareUpdateWalker = lebWalker('yjs', (index) => walkWith(index, walkBareUpdate), describeRoot);

export const yjsWalker: FormatWalker = lebWalker('yjs', (index) => walkWith(index, walkMessage), describeRoot);
