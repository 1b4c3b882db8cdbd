/**
 * The traffic of the extension tests: a scripted conversation on two sockets that the page
 * (ext-pages.ts) and the server (ext-server.ts) both walk step by step, so the order of
 * frames is fixed: CBOR, MessagePack, JSON text, json-joy patches and a model, Blobs, a
 * DataView and a sub-array view, in both directions. The test knows every frame's bytes, so
 * it can check direction, size and decoded format of each row in the panel.
 */
import { encode as encodeCbor } from 'cbor-x';
import { encode as encodeMsgpack } from '@msgpack/msgpack';
import { Model } from 'json-joy/lib/json-crdt/index.js';
import { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';

/** How the page hands a frame to `send()` (the hook must record exactly the bytes that go out). */
export type SendAs = 'text' | 'arraybuffer' | 'uint8array' | 'dataview' | 'subarray' | 'blob';
/** A: binaryType 'arraybuffer'; B: binaryType 'blob'. */
export type SocketName = 'A' | 'B';

export interface Step {
  readonly socket: SocketName;
  /** As the page sees it: `sent` by the page, `received` from the server. */
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  /** The frame's payload bytes (UTF-8 for text frames). */
  readonly bytes: Uint8Array;
  /** data-format the panel must show. */
  readonly format: 'cbor' | 'msgpack' | 'json' | 'crdt-patch' | 'crdt-model';
  readonly sendAs?: SendAs;
  /** Phase: `backlog` frames happen before the panel opens, `live` ones after. */
  readonly phase: 'backlog' | 'live';
  readonly label: string;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

export function conversation(): Step[] {
  // Two json-joy sessions editing one document: the page's and the server's.
  const page = Model.create(undefined, 0x1f2e3d);
  page.api.root({ title: 'wirescope', tags: ['ws', 'crdt'], rev: 1 });
  const pagePatch1 = page.api.flush().toBinary();
  const server = Model.fromBinary(page.toBinary()).fork(0x4c5b6a);
  server.api.str(['title']).ins(9, ' ✓');
  const serverPatch = server.api.flush().toBinary();
  page.applyPatch(Patch.fromBinary(serverPatch));
  page.api.obj([]).set({ rev: 2 });
  const pagePatch2 = page.api.flush().toBinary();
  const serverModel = server.toBinary();

  const s = (
    socket: SocketName,
    direction: Step['direction'],
    format: Step['format'],
    bytes: Uint8Array,
    label: string,
    extra: Partial<Step> = {},
  ): Step => ({
    socket,
    direction,
    opcode: 'binary',
    bytes,
    format,
    phase: 'backlog',
    label,
    ...extra,
  });
  const text = (
    socket: SocketName,
    direction: Step['direction'],
    value: unknown,
    label: string,
    extra: Partial<Step> = {},
  ): Step =>
    s(socket, direction, 'json', utf8(JSON.stringify(value)), label, {
      opcode: 'text',
      sendAs: direction === 'sent' ? 'text' : undefined,
      ...extra,
    });
  return checkTurns([
    s(
      'A',
      'sent',
      'cbor',
      encodeCbor({ op: 'subscribe', topics: ['prices', 'news'], since: 1_700_000_000_000 }),
      'CBOR map (ArrayBuffer)',
      { sendAs: 'arraybuffer' },
    ),
    s(
      'A',
      'received',
      'cbor',
      encodeCbor({ ok: true, topics: 2, bytes: new Uint8Array([1, 2, 3, 250]), price: -12.75 }),
      'CBOR reply',
    ),
    s(
      'A',
      'sent',
      'msgpack',
      encodeMsgpack({ op: 'quote', sym: 'ACME', qty: 300, limit: 101.25, flags: [true, null] }),
      'MessagePack map (Uint8Array)',
      { sendAs: 'uint8array' },
    ),
    s(
      'A',
      'received',
      'msgpack',
      encodeMsgpack({
        id: 7,
        fills: [
          { qty: 100, px: 101.2 },
          { qty: 200, px: 101.25 },
        ],
        done: false,
      }),
      'MessagePack reply',
    ),
    text('A', 'sent', { type: 'chat', text: 'héllo — ünïcode ✓', n: [1, 2, 3] }, 'JSON text, non-ASCII'),
    text('A', 'received', { type: 'chat.ack', id: 'm-1', ok: true }, 'JSON text reply'),
    s('A', 'sent', 'crdt-patch', pagePatch1, 'json-joy patch (DataView)', { sendAs: 'dataview' }),
    s('A', 'received', 'crdt-patch', serverPatch, 'json-joy patch from the server'),
    s('A', 'sent', 'msgpack', encodeMsgpack({ op: 'upload', name: 'a.bin', parts: 3 }), 'Blob holding MessagePack', {
      sendAs: 'blob',
    }),
    s('A', 'received', 'crdt-model', serverModel, 'json-joy model snapshot'),
    s(
      'B',
      'received',
      'cbor',
      encodeCbor({ blob: 1, data: 'received with binaryType blob' }),
      'CBOR received as a Blob',
    ),
    s('B', 'received', 'msgpack', encodeMsgpack({ blob: 2, list: [1, 2, 3, 4, 5] }), 'MessagePack received as a Blob'),
    s('B', 'sent', 'cbor', encodeCbor(['view', 42, { k: 'only the view bytes' }]), 'CBOR from a sub-array view', {
      sendAs: 'subarray',
    }),
    // After the panel is open: these must arrive live.
    s('A', 'sent', 'crdt-patch', pagePatch2, 'json-joy patch, live', { sendAs: 'uint8array', phase: 'live' }),
    s(
      'A',
      'received',
      'cbor',
      encodeCbor({ live: true, seq: 99, items: Array.from({ length: 30 }, (_, i) => i * i) }),
      'CBOR, live',
      { phase: 'live' },
    ),
    text('A', 'sent', { type: 'bye', live: true }, 'JSON text, live', { phase: 'live' }),
    s('A', 'received', 'msgpack', encodeMsgpack({ bye: true }), 'MessagePack, live', { phase: 'live' }),
  ]);
}

/**
 * The server sends its frames as soon as it is its turn, so on each socket the `live` steps
 * must start with the page's: otherwise they would be sent before the panel is open.
 */
function checkTurns(steps: Step[]): Step[] {
  for (const socket of ['A', 'B'] as const) {
    const mine = steps.filter((s) => s.socket === socket);
    const firstLive = mine.findIndex((s) => s.phase === 'live');
    if (firstLive >= 0 && mine[firstLive]!.direction !== 'sent')
      throw new Error(`conversation: socket ${socket}'s live steps must start with a frame the page sends`);
    if (mine.slice(firstLive >= 0 ? firstLive : mine.length).some((s) => s.phase !== 'live'))
      throw new Error(`conversation: socket ${socket}'s backlog steps must come before its live ones`);
  }
  return steps;
}

/** What one frame row of the panel must say about a step. */
export interface ExpectedRow {
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  readonly size: string;
  readonly format: string;
  readonly connection: string;
  readonly label: string;
}

export function expectedRows(steps: readonly Step[], connections: Record<SocketName, string>): ExpectedRow[] {
  return steps.map((s) => ({
    direction: s.direction,
    opcode: s.opcode,
    size: sizeText(s.bytes.length),
    format: s.format,
    connection: connections[s.socket],
    label: s.label,
  }));
}

/** The size column's text (inspector-app/src/components/shell/format.ts formatBytes). */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 2 : 1)} MB`;
}

/** Steps as JSON for the page (bytes as base64). */
export function stepsForPage(steps: readonly Step[]): string {
  return JSON.stringify(
    steps.map((s) => ({
      socket: s.socket,
      direction: s.direction,
      opcode: s.opcode,
      sendAs: s.sendAs ?? null,
      phase: s.phase,
      b64: Buffer.from(s.bytes).toString('base64'),
    })),
  );
}
