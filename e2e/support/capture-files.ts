/**
 * Capture files for the import / export tests: a small HAR in Chrome DevTools' format
 * (`_resourceType: 'websocket'`, `_webSocketMessages`), and readers for exported HAR and
 * wirescope captures that reduce both to the same shape, so bytes can be compared exactly.
 * The readers are written here on purpose (not the app's parsers): the test must not
 * trust the code it checks.
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';

export interface PlainFrame {
  readonly direction: 'sent' | 'received';
  readonly opcode: 'text' | 'binary';
  /** Lowercase hex of the frame's bytes. */
  readonly hex: string;
  /** ms since the epoch. */
  readonly time: number;
}

/** Frames by connection URL, each list in time order. */
export type FramesByUrl = Map<string, PlainFrame[]>;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const T0 = 1767225600; // 2026-01-01T00:00:00Z, in seconds as HAR writes it

/** Deterministic bytes that are no valid CBOR / MessagePack / JSON (xorshift32). */
function randomBytes(count: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(count);
  let x = seed >>> 0;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  out[0] = 0xff; // a CBOR "break" first: never a well-formed item
  return out;
}

interface HarMessage {
  type: 'send' | 'receive';
  time: number;
  opcode: 1 | 2;
  data: string;
}

/** The HAR to import, and what it holds (by URL) for comparison. */
export function harFixture(): { text: string; expected: FramesByUrl; frameCount: number } {
  const cbor = new CborEncoder().encode({
    type: 'order.created',
    id: 4711,
    items: [
      { sku: 'A-1', qty: 2, price: 9.5 },
      { sku: 'B-7', qty: 1, price: 120 },
    ],
    paid: true,
  });
  const msgpack = new MsgPackEncoder().encode({
    type: 'chat.message',
    user: 'ann',
    text: 'hello ☃',
    ts: 1767225600123,
    tags: ['a', 'b'],
  });
  const jsonText = JSON.stringify({ type: 'presence', user: 'bob', online: true, note: 'naïve — 日本語 🎉' });
  const random = randomBytes(64);
  const chat: HarMessage[] = [
    { type: 'receive', time: T0 + 0.125, opcode: 2, data: Buffer.from(cbor).toString('base64') },
    { type: 'send', time: T0 + 0.25, opcode: 2, data: Buffer.from(msgpack).toString('base64') },
    { type: 'receive', time: T0 + 0.5, opcode: 1, data: jsonText },
    { type: 'receive', time: T0 + 0.75, opcode: 2, data: Buffer.from(random).toString('base64') },
  ];
  const feed: HarMessage[] = [
    {
      type: 'receive',
      time: T0 + 0.375,
      opcode: 2,
      data: Buffer.from(new CborEncoder().encode([1, -1, 'x', null])).toString('base64'),
    },
  ];
  const entry = (url: string, messages: HarMessage[]) => ({
    startedDateTime: new Date(T0 * 1000).toISOString(),
    time: 1000,
    request: {
      method: 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Upgrade', value: 'websocket' }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 101,
      statusText: 'Switching Protocols',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 0, receive: 1000 },
    _resourceType: 'websocket',
    _webSocketMessages: messages,
  });
  const plainHttp = {
    ...entry('https://example.test/app.js', []),
    _resourceType: 'script',
    _webSocketMessages: undefined,
    response: { status: 200 },
  };
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [],
      entries: [plainHttp, entry('wss://chat.example.test/socket', chat), entry('wss://feed.example.test/v1', feed)],
    },
  };
  const text = JSON.stringify(har, null, 2);
  return { text, expected: readHar(text), frameCount: chat.length + feed.length };
}

type Json = Record<string, any>;

function group(list: { url: string; frame: PlainFrame }[]): FramesByUrl {
  const out: FramesByUrl = new Map();
  for (const { url, frame } of list) {
    if (!out.has(url)) out.set(url, []);
    out.get(url)!.push(frame);
  }
  for (const frames of out.values()) frames.sort((a, b) => a.time - b.time);
  return out;
}

/** WebSocket frames of a HAR (Chrome's fields; `_wirescopeOpcode: 'text'` marks text written as base64). */
export function readHar(text: string): FramesByUrl {
  const list: { url: string; frame: PlainFrame }[] = [];
  for (const e of (JSON.parse(text) as Json).log.entries as Json[]) {
    if (!Array.isArray(e._webSocketMessages)) continue;
    for (const m of e._webSocketMessages as Json[]) {
      const bytes = m.opcode === 1 ? Buffer.from(m.data as string, 'utf8') : Buffer.from(m.data as string, 'base64');
      const opcode = m.opcode === 1 || m._wirescopeOpcode === 'text' ? 'text' : 'binary';
      list.push({
        url: e.request.url,
        frame: {
          direction: m.type === 'send' ? 'sent' : 'received',
          opcode,
          hex: hex(bytes),
          time: (m.time as number) * 1000,
        },
      });
    }
  }
  return group(list);
}

/** Frames of a wirescope capture file (format documented in codecs/capture/capture-file.ts). */
export function readCapture(text: string): FramesByUrl {
  const root = JSON.parse(text) as Json;
  if (root.format !== 'wirescope-capture')
    throw new Error(`not a wirescope capture: format ${JSON.stringify(root.format)}`);
  const urls = new Map<string, string>((root.connections as Json[]).map((c) => [c.connectionId, c.url]));
  const list = (root.frames as Json[]).map((f) => ({
    url: urls.get(f.c) ?? `?${f.c}`,
    frame: {
      direction: f.d === 's' ? 'sent' : 'received',
      opcode: f.o === 't' ? 'text' : 'binary',
      hex: hex(Buffer.from(f.b64 as string, 'base64')),
      time: f.t as number,
    } as PlainFrame,
  }));
  return group(list);
}

/** The comparable part (bytes, opcode, direction), times rounded to the µs they were written with. */
export function comparable(
  frames: FramesByUrl,
): Record<string, { direction: string; opcode: string; hex: string; timeUs: number }[]> {
  const out: Record<string, { direction: string; opcode: string; hex: string; timeUs: number }[]> = {};
  for (const [url, list] of [...frames].sort(([a], [b]) => a.localeCompare(b))) {
    out[url] = list.map((f) => ({
      direction: f.direction,
      opcode: f.opcode,
      hex: f.hex,
      timeUs: Math.round(f.time * 1000),
    }));
  }
  return out;
}
