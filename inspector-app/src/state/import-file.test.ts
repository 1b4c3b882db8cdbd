import { describe, expect, it } from 'vitest';
import { importCaptureFile } from './import-file.js';

describe('importing a file', () => {
  it('says an empty file is empty rather than not a capture', () => {
    expect(importCaptureFile(new Uint8Array(0))).toEqual({ error: 'the file is empty: nothing was recorded in it' });
    expect(importCaptureFile(new TextEncoder().encode('{"a":1}'))).toMatchObject({ error: /not a HAR file/ });
  });
});
