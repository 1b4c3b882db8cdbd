import { isMeasured, type Row } from '../../compare/compare.js';

/** What must not depend on the lane: everything but the timings. */
export const comparable = (row: Row): unknown =>
  isMeasured(row)
    ? {
        codec: row.codec,
        label: row.label,
        family: row.family,
        notes: row.notes,
        size: row.size,
        parts: row.parts,
        gzip: row.gzip,
        deflate: row.deflate,
        lossless: row.lossless,
        lost: row.lost,
        decodeError: row.decodeError,
        decoded: row.decode !== null,
      }
    : { codec: row.codec, label: row.label, family: row.family, unsupported: row.unsupported };
