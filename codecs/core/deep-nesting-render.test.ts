import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt';
import { decodeFrame, type FrameFormat } from '../index.js';
import { annotatedHex } from './annotate.js';
import { diagnostic } from './diagnostic.js';
import { previewValue } from './describe.js';
import { nodeTreeText } from '../cli/render-tree.js';
import { nodeTreeJson } from '../cli/render-json.js';
import { INDENT_LEVELS } from './indent.js';
import { deepCbor, deepCrdtModel, deepJson, deepMsgpack } from '../test/helpers/deep-frames.js';
import { runCli } from '../test/helpers/cli.js';

/**
 * The walkers take 100,000 nested arrays; what prints them must too: output linear in the
 * number of items (indentation capped past INDENT_LEVELS, the depth shown as a number),
 * iterative, bounded in memory. The default tree threw `RangeError: Invalid string length`
 * at 100,000 levels and annotatedHex ran out of memory (3.6 GB); on json-joy models the
 * default tree was quadratic (every node's preview built the view of its whole subtree).
 */
const N = 100_000;
const frames: [FrameFormat, Uint8Array][] = [
  ['cbor', deepCbor(N)],
  ['msgpack', deepMsgpack(N)],
  ['json', deepJson(N)],
  ['crdt-model', deepCrdtModel(N)],
];

/** CPU milliseconds `fn` takes (user + system), the least of three runs. */
function cpuMs(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

describe('renderers on 100,000 nested arrays', () => {
  it('the json-joy model built by hand is what json-joy writes for [[…[1]…]]', () => {
    for (const n of [1, 2, 5, 130]) {
      let doc: unknown = 1;
      for (let i = 0; i < n; i++) doc = [doc];
      const model = Model.create(undefined, 1);
      model.api.set(doc);
      expect(Buffer.from(deepCrdtModel(n)).toString('hex')).toBe(Buffer.from(model.toBinary()).toString('hex'));
    }
  });

  it.each(frames)('%s: tree, --json, annotated hex and EDN print in output linear in the items', (format, bytes) => {
    const { index, error } = decodeFrame(bytes, { format });
    expect(error).toBeNull();
    const nodes = index!.store.size;
    expect(nodes).toBeGreaterThanOrEqual(N);
    const tree = nodeTreeText(index!, 0);
    expect(tree.length).toBeLessThan(200 * nodes);
    // The deepest lines keep the capped indentation and name their depth.
    const lines = tree.split('\n');
    const last = lines.filter((l) => l.includes('·')).pop()!;
    expect(last).toMatch(new RegExp(`^\\s*\\d+\\s+\\d+ {${2 + 2 * INDENT_LEVELS}}·\\d{5,6} `));
    const hex = annotatedHex(index!, 0);
    expect(hex.length).toBeLessThan(250 * nodes);
    expect(hex).toMatch(/·\d{5,6} /);
    const json = nodeTreeJson(index!, 0);
    expect(json.length).toBeLessThan(400 * nodes);
    expect(diagnostic(index!).length).toBeLessThan(10 * nodes);
  });

  it('json-joy models: the default tree and --json cost linear CPU time (4x the levels, well under 16x the time)', () => {
    const render = (n: number) => {
      const { index } = decodeFrame(deepCrdtModel(n), { format: 'crdt-model' });
      return () => {
        nodeTreeText(index!, 0);
        nodeTreeJson(index!, 0);
      };
    };
    const small = render(2_000);
    const large = render(8_000);
    small();
    const ratio = cpuMs(large) / Math.max(1, cpuMs(small));
    expect(ratio).toBeLessThan(8);
  });

  it('json-joy model previews are the view, cut at the limit', () => {
    const { index } = decodeFrame(deepCrdtModel(5), { format: 'crdt-model' });
    expect(previewValue(index!, 0, 80)).toBe('[[[[[1]]]]]');
    const deep = decodeFrame(deepCrdtModel(N), { format: 'crdt-model' }).index!;
    expect(previewValue(deep, 0, 20)).toBe('['.repeat(19) + '…');
  });

  it.each(frames)('%s: the CLI default tree prints, exit 0', (format, bytes) => {
    const r = runCli(['inspect', 'f', '--format', format], { f: bytes });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/·\d{5,6} /);
  });
});
