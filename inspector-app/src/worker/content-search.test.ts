import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame } from '../../../codecs/index.js';
import type { FromWorker, IngestFrame } from './api.js';
import { compileQuery, frameMatches, searchFormat } from './content-search.js';
import { createDispatcher } from './dispatcher.js';
import { jsonText } from './json-text.js';
import { summarize } from './handlers.js';
import { hex } from '../../../codecs/test/helpers/hex.js';
import { numberedFrames } from './test/numbered-frames.js';

const cbor = (v: unknown) => new CborEncoder().encode(v);
const msgpack = (v: unknown) => new MsgPackEncoder().encode(v);
const utf8 = (s: string) => new TextEncoder().encode(s);
const numbered = numberedFrames({ connectionId: 'c', time: 0 });
const frame = (data: Uint8Array, opcode: 'text' | 'binary' = 'binary'): IngestFrame => numbered(data, { opcode });

/** The definition: the needle occurs (case-insensitively) in the frame's JSON rendering, or in its text when it is plain text or does not decode. */
function reference(f: IngestFrame, needle: string): boolean {
  const d = decodeFrame(f.data, { isText: f.opcode === 'text' });
  if (!d.index || d.index.root < 0 || summarize(f).format === null)
    return new TextDecoder().decode(f.data).toLowerCase().includes(needle.toLowerCase());
  return jsonText(d.index.value(d.index.root), Infinity, undefined).text.toLowerCase().includes(needle.toLowerCase());
}

describe('content search', () => {
  const frames = [
    frame(
      cbor({
        name: 'Juliet',
        lf: 'lf',
        n: 42,
        ok: true,
        bin: new Uint8Array([0xde, 0xad]),
        nested: [{ deep: 'Ökonomie' }],
      }),
    ),
    frame(msgpack({ city: 'Zürich', count: 1234567, none: null, word: 'elf' })),
    frame(utf8('{"escaped":"caf\\u00e9 \\"quoted\\"","tab":"a\\tb"}'), 'text'),
    frame(hex('7f 62 61 62 62 63 64 ff')), // indefinite text "ab" + "cd"
    frame(utf8('hello plain text'), 'text'),
    frame(hex('a2 61 61 01 61 62')), // malformed: truncated map
    frame(cbor({ t: new Date(0).toISOString(), big: 2n ** 70n })),
    frame(cbor({ kelvin: '\u212Aelvin', dot: '\u0130stanbul' })),
    frame(cbor({ k: 'ondola!', tab: 'a\telemetry', ctl: 'x\u001fzebra' })), // raw bytes read "gondola!": the header of text(7) is "g"
  ];
  const needles = [
    'juliet',
    'JULIET',
    'elf',
    'lf',
    '42',
    'true',
    'null',
    "h'dead'",
    'dead',
    'ökonomie',
    'zürich',
    '1234',
    'café',
    '"quoted',
    'abcd',
    'bc',
    'plain',
    'a":1',
    '"n":42',
    'deep',
    '1970',
    '1180591620717411303424',
    'zzz',
    'e',
    'a',
    'gondola',
    'ondola',
    'Gondola',
    'telemetry',
    'elemetry',
    'zzzz',
    'u001fzebra',
    '1fzebra',
    'fzebra',
    'zebra',
    't',
    'z',
    'nbc',
    'order-42',
    'kelvin',
    'elvin',
    'i̇stanbul',
    'stanbul',
  ];
  for (const needle of needles) {
    it(`"${needle}" matches exactly the frames whose decoded content holds it`, () => {
      const query = compileQuery(needle, '');
      if (!query || 'error' in query) throw new Error('no query');
      for (const f of frames) {
        const format = searchFormat(summarize(f));
        expect(frameMatches(f, format, query), `frame ${f.frameId} for "${needle}"`).toBe(reference(f, needle));
      }
    });
  }

  it('streams: matches come in slices with progress, and a newer filter supersedes the running one', async () => {
    const posts: FromWorker[] = [];
    let clock = 0;
    // Every look at the clock advances it 1 ms: a slice of 5 ms holds a handful of frames.
    const dispatch = createDispatcher((m) => posts.push(m), { sliceMs: 5, now: () => clock++ });
    const many = Array.from({ length: 200 }, (_, i) => frame(cbor({ i, word: i % 2 ? 'odd' : 'even' })));
    dispatch({ type: 'ingest', frames: many });
    dispatch({ type: 'filter', generation: 1, text: 'even', path: '' });
    await new Promise((r) => setTimeout(r, 0));
    const first = posts.filter((p) => p.type === 'filter-progress');
    expect(first.length).toBeGreaterThan(0);
    expect(first[0]).toMatchObject({ generation: 1, done: false });
    dispatch({ type: 'filter', generation: 2, text: 'odd', path: '' });
    const finished = () => posts.some((p) => p.type === 'filter-progress' && p.generation === 2 && p.done);
    for (let waited = 0; !finished() && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    const progress = posts.filter(
      (p): p is Extract<FromWorker, { type: 'filter-progress' }> => p.type === 'filter-progress',
    );
    expect(progress.some((p) => p.generation === 1 && p.done)).toBe(false);
    const second = progress.filter((p) => p.generation === 2);
    expect(second.at(-1)).toMatchObject({ done: true, searched: 200, total: 200 });
    expect(second.flatMap((p) => p.matches)).toEqual(many.filter((_, i) => i % 2).map((f) => f.frameId));
  });
});
