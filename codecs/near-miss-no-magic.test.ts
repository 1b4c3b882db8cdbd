import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from './index.js';

/** yjs and json-joy's model and patch have no magic number: failing to read bytes says nothing about them. */
const NO_MAGIC = ['yjs', 'crdt-model', 'crdt-patch'];

describe('a format with no magic number is no near miss of short random binaries', () => {
  it('01 02 03 04 (a Socket.IO upload) is unknown, not "malformed yjs" (its awareness length past the end)', () => {
    const d = decodeFrame(Uint8Array.of(1, 2, 3, 4), { depth: 1 });
    expect(d.verdict).toBe('unknown');
    expect(d.format).toBeNull();
  });

  it('no short random binary no format reads is called malformed yjs / crdt-model / crdt-patch', () => {
    const small = fc.uint8Array({ minLength: 4, maxLength: 16, max: 15 });
    const any = fc.uint8Array({ minLength: 4, maxLength: 16 });
    fc.assert(
      fc.property(fc.oneof(small, any), (bytes) => {
        const d = decodeFrame(bytes, { depth: 1 });
        return !(d.verdict === 'malformed' && NO_MAGIC.includes(d.format ?? ''));
      }),
      { numRuns: 3000, seed: 27 },
    );
  });

  it('still calls a frame malformed yjs on a connection whose format is yjs when it was cut short', () => {
    // SyncStep1 (0 0) with a state vector declaring 3 bytes, of which 1 came.
    const d = decodeFrame(Uint8Array.of(0, 0, 3, 1), { depth: 1, preferFormat: 'yjs' });
    expect(d).toMatchObject({ format: 'yjs', verdict: 'malformed' });
    expect(d.error!.offset).toBe(2);
  });
});
