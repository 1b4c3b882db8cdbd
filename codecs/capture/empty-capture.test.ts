import { describe, expect, it } from 'vitest';
import { readCaptureSession } from '../compare/session/capture-input.js';
import { emptyCaptureReason } from './capture-file.js';

describe('an empty file offered as a capture', () => {
  it('is said to be empty, with or without whitespace or a byte order mark', () => {
    for (const text of ['', '\n', '  \r\n', '\uFEFF'])
      expect(emptyCaptureReason(new TextEncoder().encode(text))).toBe('the file is empty: nothing was recorded in it');
    expect(readCaptureSession(new Uint8Array(0))).toEqual({ error: 'the file is empty: nothing was recorded in it' });
  });

  it('is not what a file with something else in it is called', () => {
    expect(emptyCaptureReason(new TextEncoder().encode('hello'))).toBeNull();
    expect(readCaptureSession(new TextEncoder().encode('hello'))).toMatchObject({ error: /not a HAR file/ });
  });
});
