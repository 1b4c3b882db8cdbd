/**
 * The text filter's byte-level route (ascii-find.ts, string-hits.ts): the same answer as the
 * definition on random frames, and a needle found in nearly every frame no longer costs a
 * span index per frame.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame } from '../../../codecs/index.js';
import type { IngestFrame } from './api.js';
import { compileQuery, frameMatches, searchFormat, searchRoute, type ContentQuery } from './content-search.js';
import { jsonText } from './json-text.js';
import { summarize } from './handlers.js';
import { framePool } from '../../../e2e/bench/payloads.js';
import { hex } from '../../../codecs/test/helpers/hex.js';
import { numberedFrames } from './test/numbered-frames.js';

const cbor = (v: unknown) => new CborEncoder().encode(v).slice();
const msgpack = (v: unknown) => new MsgPackEncoder().encode(v).slice();
const utf8 = (s: string) => new TextEncoder().encode(s);
const numbered = numberedFrames({ connectionId: 'c', time: 0 });
const frame = (data: Uint8Array, opcode: 'text' | 'binary' = 'binary'): IngestFrame => numbered(data, { opcode });

function query(needle: string): ContentQuery {
  const q = compileQuery(needle, '');
  if (!q || 'error' in q) throw new Error(`no query for ${needle}`);
  return q;
}

/** The definition (content-search.ts): the needle in the frame's JSON rendering, case-insensitively. */
function reference(f: IngestFrame, needle: string): boolean {
  const d = decodeFrame(f.data, { isText: f.opcode === 'text' });
  if (!d.index || d.index.root < 0 || summarize(f).format === null)
    return new TextDecoder().decode(f.data).toLowerCase().includes(needle.toLowerCase());
  return jsonText(d.index.value(d.index.root), Infinity, undefined).text.toLowerCase().includes(needle.toLowerCase());
}

const check = (f: IngestFrame, needle: string) =>
  expect(
    frameMatches(f, searchFormat(summarize(f)), query(needle)),
    `"${needle}" in ${Array.from(f.data.subarray(0, 40), (b) => b.toString(16).padStart(2, '0')).join(' ')}`,
  ).toBe(reference(f, needle));

describe('content search: the byte-level route', () => {
  it('a hit only across a head, in a byte string, in an extension or a number is not a match', () => {
    const cases: [IngestFrame, string][] = [
      // CBOR text(5) "hello" has head 65 = "e": "ehello" is in the bytes, not in the string.
      [frame(cbor({ a: 'hello' })), 'ehello'],
      [frame(cbor({ bin: utf8('juliet'), n: 0x7f7f })), 'juliet'],
      [frame(msgpack({ bin: utf8('juliet') })), 'juliet'],
      [frame(hex('d6 05 6a 75 6c 69')), 'juli'], // msgpack fixext4 whose payload reads "juli"
      [frame(hex('c7 06 05 6a 75 6c 69 65 74')), 'juliet'], // msgpack ext8
      [frame(hex('a1 64 6a 75 6c 69 18 65')), 'juli'], // CBOR {"juli": 101}
      [frame(hex('a1 61 6a 19 75 6c')), 'ul'], // CBOR {"j": 0x756c}: "ul" only in a number's bytes
      [frame(cbor(['Juliet', 3.5, 'x'])), 'juliet'],
      [frame(cbor([1e300, 'JULIET'])), 'juliet'], // a float whose bytes include 7f
      [frame(cbor({ k: 'x'.repeat(300) + 'Juliet' })), 'juliet'], // text with a 2-byte length
      [frame(msgpack({ k: 'x'.repeat(300) + 'JuLiEt' })), 'juliet'], // str16
      [frame(hex('5f 42 6a 75 42 6c 69 ff')), 'juli'], // CBOR indefinite byte string
      [frame(hex('7f 62 6a 75 62 6c 69 ff')), 'juli'], // CBOR indefinite text: the hit spans two chunks
      [frame(utf8('{"a":"juliet","b":[1,2]}'), 'text'), 'juliet'],
      [frame(utf8('{"juliet" : 1}'), 'text'), 'juliet'],
      [frame(utf8('{"a":"x","b":"juliet"}'), 'binary'), 'juliet'],
      [frame(cbor({ s: '\u0130stanbul', k: '\u212Aelvin' })), 'kelvin'],
      [frame(cbor({ s: '\u0130stanbul', t: 'kilo' })), 'kilo'],
      [frame(cbor({ tab: 'a\telemetry' })), 'telemetry'],
      [frame(cbor({ tab: 'telemetry' })), 'telemetry'],
    ];
    for (const [f, needle] of cases) check(f, needle);
  });

  it('answers as the definition does on random CBOR, MessagePack and JSON frames', () => {
    const word = fc.constantFrom(
      'juliet',
      'Juliet',
      'JULIET',
      'jul',
      'iet',
      'lima',
      'ø',
      'İ',
      '\u212A',
      'x\ty',
      'e',
      'ju"li',
      'a\\b',
      '',
    );
    const text = fc.array(word, { maxLength: 4 }).map((w) => w.join(''));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.double({ noNaN: true }),
        fc.boolean(),
        fc.uint8Array({ maxLength: 8 }),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
    })).node;
    const needle = fc.constantFrom(
      'juliet',
      'jul',
      'liet',
      'ulie',
      'lima',
      'kilo',
      'i',
      'k',
      'e',
      'tjul',
      'etj',
      'ø',
      'ty',
    );
    fc.assert(
      fc.property(value, needle, fc.constantFrom('cbor', 'msgpack', 'json'), (v, n, format) => {
        const bytes =
          format === 'cbor'
            ? cbor(v)
            : format === 'msgpack'
              ? msgpack(v)
              : utf8(JSON.stringify(v, (_, x) => (x instanceof Uint8Array ? Array.from(x) : x)));
        check(frame(bytes, format === 'json' ? 'text' : 'binary'), n);
      }),
      { numRuns: 400 },
    );
  });

  it('a needle in nearly every frame of app traffic is decided on the bytes: no span index, no rendering', () => {
    const frames = framePool(128).frames.map((d) => frame(d));
    const routes = new Map<string, number>();
    let matches = 0;
    const q = query('juliet');
    for (const f of frames) {
      const r = searchRoute(f, searchFormat(summarize(f)), q);
      routes.set(r.route, (routes.get(r.route) ?? 0) + 1);
      if (r.matches) matches++;
      expect(r.matches).toBe(reference(f, 'juliet'));
    }
    expect(matches).toBeGreaterThan(frames.length * 0.8);
    expect(Object.fromEntries(routes)).toEqual(
      Object.fromEntries([...routes].filter(([route]) => route === 'scan' || route === 'miss')),
    );
  });

  it('searching a common needle costs less than decoding the same bytes to text once (interleaved, best of 5)', () => {
    const pool = framePool(256).frames;
    const frames = Array.from({ length: 4000 }, (_, i) => frame(pool[i % pool.length]));
    const formats = frames.map((f) => searchFormat(summarize(f)));
    const q = query('juliet');
    const decoder = new TextDecoder();
    let search = Infinity;
    let decode = Infinity;
    let sink = 0;
    for (let run = 0; run < 5; run++) {
      let t = performance.now();
      for (let i = 0; i < frames.length; i++) if (frameMatches(frames[i], formats[i], q)) sink++;
      search = Math.min(search, performance.now() - t);
      t = performance.now();
      for (const f of frames) sink += decoder.decode(f.data).length & 1;
      decode = Math.min(decode, performance.now() - t);
    }
    expect(sink).toBeGreaterThan(0);
    // Before the byte route: ~3x a TextDecoder pass (a span index per matching frame); now ~0.5x.
    expect(search / decode).toBeLessThan(1.5);
  });
});
