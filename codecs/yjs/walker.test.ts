import { describe, expect, test } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as authProtocol from 'y-protocols/auth';
import { SpanIndex } from '../core/span-index.js';
import { decodeFrame } from '../index.js';
import { detectFormat } from '../detect.js';
import { yjsByteSplit, yjsMessage, yjsWalker } from './walker.js';
import { spanTilingProblem } from './test-support.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g)!.map((b) => Number.parseInt(b, 16)));
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
const message = (write: (e: encoding.Encoder) => void): Uint8Array => {
  const e = encoding.createEncoder();
  write(e);
  return encoding.toUint8Array(e);
};

/** A doc of client 42 with "hello" in text `t`: its first update as a y-protocols update message. */
function helloUpdate(): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = 42;
  let update: Uint8Array | null = null;
  doc.on('update', (u: Uint8Array) => {
    update = u;
  });
  doc.getText('t').insert(0, 'hello');
  return message((e) => {
    encoding.writeVarUint(e, 0);
    syncProtocol.writeUpdate(e, update!);
  });
}

describe('y-protocols messages', () => {
  test('00 00 01 00 is a Yjs sync step 1 with an empty state vector, not a malformed json-joy model', () => {
    const d = decodeFrame(hex('00000100'), { isText: false });
    expect(d.verdict).toBe('decoded');
    expect(d.format).toBe('yjs');
    expect(d.index!.value(0)).toEqual({
      message: 'sync',
      step: 'sync step 1',
      stateVector: { clientCount: 0, clocks: [] },
    });
  });

  test('sync step 1 lists each client and clock of the state vector', () => {
    const doc = new Y.Doc();
    doc.clientID = 300;
    doc.getText('t').insert(0, 'abc');
    const frame = message((e) => {
      encoding.writeVarUint(e, 0);
      syncProtocol.writeSyncStep1(e, doc);
    });
    const index = new SpanIndex(frame, yjsWalker);
    expect(index.error).toBeNull();
    expect(yjsMessage(index)!.stateVector).toEqual([[300, 3]]);
    expect(spanTilingProblem(index)).toBeNull();
  });

  test('an update names its struct, parent and string content, and splits content from CRDT metadata', () => {
    const frame = helloUpdate();
    const d = decodeFrame(frame, { isText: false });
    expect(d.format).toBe('yjs');
    const m = yjsMessage(d.index!)!;
    expect(m.step).toBe('update');
    expect(m.update!.clients[0].structs[0]).toMatchObject({
      struct: 'item',
      client: 42,
      clock: 0,
      length: 5,
      parent: 't',
      content: { type: 'string', value: 'hello' },
    });
    // "hello" is content; the message type, step, lengths, client, clock, info byte, parent name and delete set are metadata.
    expect(yjsByteSplit(d.index!)).toEqual({
      totalBytes: frame.length,
      contentBytes: 5,
      metadataBytes: frame.length - 5,
    });
    expect(spanTilingProblem(d.index!)).toBeNull();
  });

  test('awareness states open as JSON', () => {
    const doc = new Y.Doc();
    doc.clientID = 7;
    const awareness = new awarenessProtocol.Awareness(doc);
    awareness.setLocalState({ user: { name: 'ada', color: '#f00' } });
    const frame = message((e) => {
      encoding.writeVarUint(e, 1);
      encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [7]));
    });
    const index = decodeFrame(frame, { isText: false }).index!;
    expect(index.format).toBe('yjs');
    expect(yjsMessage(index)!.awareness).toEqual([
      { client: 7, clock: 1, state: { user: { name: 'ada', color: '#f00' } } },
    ]);
    expect(index.value(0)).toMatchObject({ awareness: { states: [{ state: { user: { name: 'ada' } } }] } });
    expect(spanTilingProblem(index)).toBeNull();
  });

  test('auth permission denied carries its reason', () => {
    const frame = message((e) => {
      encoding.writeVarUint(e, 2);
      authProtocol.writePermissionDenied(e, 'no entry');
    });
    const index = decodeFrame(frame, { isText: false }).index!;
    expect(index.format).toBe('yjs');
    expect(yjsMessage(index)).toEqual({ message: 'auth', reason: 'no entry' });
  });

  test('a lone query awareness byte is a Yjs reading below 0.5 unless the connection speaks Yjs', () => {
    const yjs = (preferFormat?: string) =>
      detectFormat(hex('03'), { isText: false, preferFormat }).candidates.find((c) => c.format === 'yjs')!;
    expect(yjs().confidence).toBeLessThan(0.5);
    expect(yjs('yjs').confidence).toBeGreaterThan(0.5);
    expect(decodeFrame(hex('03'), { isText: false, preferFormat: 'yjs' }).format).toBe('yjs');
  });

  test('legacy JSON content reads each value, `undefined` included', () => {
    // 1 client: 1 struct of client 7 at clock 0; info 0x02 (JSON, parent follows), root type "a"; 2 values; no deletes.
    const update = [1, 1, 7, 0, 0x02, 1, 1, ...utf8('a'), 2, 3, ...utf8('[1]'), 9, ...utf8('undefined'), 0];
    const frame = Uint8Array.from([0, 2, update.length, ...update]);
    const index = new SpanIndex(frame, yjsWalker);
    expect(index.error).toBeNull();
    expect(yjsMessage(index)!.update!.clients[0].structs[0]).toMatchObject({
      length: 2,
      content: { type: 'json', values: [[1], undefined] },
    });
    expect(yjsByteSplit(index).contentBytes).toBe(3 + 9);
  });
});

describe('broken Yjs frames: an error with its offset, the tree read so far kept', () => {
  test('an update cut short inside its string is truncated there, its open nodes incomplete', () => {
    const whole = helloUpdate();
    const cut = whole.subarray(0, whole.length - 4);
    const index = new SpanIndex(cut, yjsWalker);
    expect(index.error?.code).toBe('length-exceeds-input');
    expect(index.error!.offset).toBe(2);
    // The update's declared length is past the frame: nothing inside it is claimed.
    expect(index.isIncomplete(0)).toBe(true);
  });

  test('a string longer than its update is an error at the string, after the struct read so far', () => {
    const frame = helloUpdate();
    const stringLengthAt = frame.indexOf(5, 8);
    const broken = frame.slice();
    broken[stringLengthAt] = 60;
    const index = new SpanIndex(broken, yjsWalker);
    expect(index.error).toMatchObject({ code: 'length-exceeds-input', offset: stringLengthAt });
    expect(index.error!.message).toContain('string content');
    const m = yjsMessage(index);
    expect(m?.step).toBe('update');
    expect(index.value(0)).toMatchObject({ update: { structs: [{ client: 42, items: [{ parent: { name: 't' } }] }] } });
  });

  test('a struct info byte naming no content type is refused at that byte', () => {
    const frame = helloUpdate();
    const infoAt = frame.indexOf(0x04, 5);
    const broken = frame.slice();
    broken[infoAt] = 0x0b;
    const index = new SpanIndex(broken, yjsWalker);
    expect(index.error).toMatchObject({ code: 'invalid-byte', offset: infoAt });
  });

  test('bytes left inside the update buffer are trailing bytes at their offset', () => {
    const update = [0, 0, 0xff];
    const index = new SpanIndex(Uint8Array.from([0, 2, update.length, ...update]), yjsWalker);
    expect(index.error).toMatchObject({ code: 'trailing-bytes', offset: 5 });
  });

  test('an update in the v2 encoding is named and left unread, not read as v1', () => {
    const doc = new Y.Doc();
    doc.getMap('m').set('k', 'v');
    const frame = message((e) => {
      encoding.writeVarUint(e, 0);
      encoding.writeVarUint(e, 2);
      encoding.writeVarUint8Array(e, Y.encodeStateAsUpdateV2(doc));
    });
    const d = decodeFrame(frame, { isText: false });
    expect(d.format).toBe('yjs');
    expect(d.verdict).toBe('malformed');
    expect(d.error).toMatchObject({ code: 'unsupported-format', offset: 2 });
    expect(d.error!.message).toContain('update v2');
    expect(yjsMessage(d.index!)!.update).toBeUndefined();
  });

  test('any values nested past the limit stop with nesting-too-deep, not a stack overflow', () => {
    const depth = 300;
    // info 0x08 (any), root type "a", 1 value: 300 arrays of one element, then null.
    const any = [...Array(depth).fill([117, 1]).flat(), 126];
    const update = [1, 1, 7, 0, 0x08, 1, 1, ...utf8('a'), 1, ...any, 0];
    const body = message((e) => encoding.writeVarUint8Array(e, Uint8Array.from(update)));
    const index = new SpanIndex(Uint8Array.from([0, 2, ...body]), yjsWalker);
    expect(index.error?.code).toBe('nesting-too-deep');
  });

  test('a frame whose reading fails at its first bytes is not claimed as Yjs', () => {
    const detection = detectFormat(hex('0105'), { isText: false });
    expect(detection.candidates.some((c) => c.format === 'yjs')).toBe(false);
    expect(detection.rejected.some((r) => r.format === 'yjs')).toBe(false);
  });
});
