import { describe, expect, it } from 'vitest';
import { decodeFrame, type FrameFormat } from '../index.js';
import { annotatedHex } from './annotate.js';
import { hex } from '../test/helpers/hex.js';

function commentOf(bytes: string, format: FrameFormat, offset: number): string {
  const index = decodeFrame(hex(bytes), { format }).index!;
  index.expandAll(index.root);
  const line = annotatedHex(index)
    .split('\n')
    .find((l) => l.trimStart().startsWith(`${offset} `))!;
  return line.slice(line.indexOf('# ') + 2);
}

describe('annotated hex: simple values are named once', () => {
  // A cbor `false` read `# false false`.
  it.each([
    ['f4', 'false'],
    ['f5', 'true'],
    ['f6', 'null'],
    ['f7', 'undefined'],
  ])('cbor %s reads "# %s"', (b, word) => {
    expect(commentOf(`a1 61 76 ${b}`, 'cbor', 3)).toBe(word);
  });

  it('msgpack false, and numbers keep their kind and value', () => {
    expect(commentOf('81 a1 76 c2', 'msgpack', 3)).toBe('false');
    expect(commentOf('a1 61 76 02', 'cbor', 3)).toBe('unsigned 2');
  });
});
