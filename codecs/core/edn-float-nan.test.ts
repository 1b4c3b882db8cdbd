import { describe, expect, it } from 'vitest';
import { indexCbor } from '../cbor/index.js';
import { diagnostic } from './diagnostic.js';
import { previewValue } from './describe.js';
import { decodeFrame } from '../index.js';
import { hex } from '../test/helpers/cbor.js';

const edn = (h: string, indicators?: 'auto' | 'always' | 'never') => diagnostic(indexCbor(hex(h)), 0, { indicators });

describe('float encoding indicators and NaN payloads', () => {
  it('a NaN whose payload needs its width is already shortest: no indicator', () => {
    expect(edn('fa 7fa3f553')).toBe("float'7fa3f553'");
    expect(edn('fb 7ff47eaa6bb744df')).toBe("float'7ff47eaa6bb744df'");
  });

  it('NaN payloads are shown (the canonical quiet NaN stays NaN)', () => {
    expect(edn('f9 7e00')).toBe('NaN');
    expect(edn('f9 7e01')).toBe("float'7e01'");
    expect(edn('f9 fe00')).toBe("float'fe00'");
    expect(edn('fa 7f800001')).toBe("float'7f800001'");
  });

  it('a NaN wider than needed shows its shortest bits and the indicator of the width on the wire', () => {
    expect(edn('fa 7fc00000')).toBe('NaN_2');
    expect(edn('fb 7ff8000000000000')).toBe('NaN_3');
    expect(edn('fb 7ff4000000000000')).toBe("float'7d00'_3");
    expect(edn('fa 7fa3e000')).toBe("float'7d1f'_2");
    expect(edn('f9 7e01', 'always')).toBe("float'7e01'_1");
    expect(edn('fa 7fa3e000', 'never')).toBe("float'7d1f'");
  });

  it('ordinary floats are unchanged', () => {
    expect(edn('f9 3c00')).toBe('1.0');
    expect(edn('fa 3fc00000')).toBe('1.5_2');
    expect(edn('fa 47c35000')).toBe('100000.0');
    expect(edn('fb 3ff199999999999a')).toBe('1.1');
    expect(edn('f9 8000')).toBe('-0.0');
    expect(edn('fa ff800000')).toBe('-Infinity_2');
  });

  it('the tree preview shows the payload too, CBOR and MessagePack alike', () => {
    expect(previewValue(indexCbor(hex('fa 7fa3f553')), 0)).toBe("float'7fa3f553'");
    expect(previewValue(indexCbor(hex('f9 7e00')), 0)).toBe('NaN');
    const mp = decodeFrame(hex('cb 7ff47eaa6bb744df'), { format: 'msgpack' }).index!;
    expect(previewValue(mp, 0)).toBe("float'7ff47eaa6bb744df'");
    expect(diagnostic(mp)).toBe("float'7ff47eaa6bb744df'");
  });
});
