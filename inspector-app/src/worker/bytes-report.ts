/**
 * The Bytes view's numbers for one frame, computed in the worker from its span index: where
 * the bytes go (codecs/core/attribution.ts), keys vs values vs map framing and the schema
 * estimate (codecs/compare/keys.ts), and the cost by field across array elements
 * (codecs/core/field-cost.ts). The same figures `wirescope inspect` / `compare` print.
 */
import { fieldCosts, frameAttribution, type SpanIndex } from '../../../codecs/index.js';
import { keyOverhead } from '../../../codecs/compare/keys.js';
import type { BytesReport } from './api.js';

/** Frames up to this size are indexed whole for the report; larger ones three levels deep. */
export const FULL_REPORT_LIMIT = 32 * 1024 * 1024;

export function bytesReport(index: SpanIndex, options: { fieldLimit?: number; topKeys?: number } = {}): BytesReport {
  const whole = index.bytes.length <= FULL_REPORT_LIMIT;
  if (index.root >= 0) {
    if (whole) index.expandAll(index.root);
    else index.expand(index.root, 3);
  }
  const a = frameAttribution(index);
  // keyOverhead indexes the whole frame: only where the report does.
  const keys = whole && index.root >= 0 ? keyOverhead(index, { top: options.topKeys ?? 12 }) : null;
  const fields = fieldCosts(index, { limit: options.fieldLimit ?? 500 });
  return {
    frameBytes: a.bytes,
    format: index.format,
    whole,
    nodes: a.nodes,
    breakdown: {
      headerBytes: a.headerBytes,
      keyBytes: a.keyBytes,
      stringPayloadBytes: a.stringPayloadBytes,
      scalarPayloadBytes: a.scalarPayloadBytes,
      unindexedBytes: a.unindexedBytes,
      otherBytes: a.otherBytes,
    },
    keys:
      keys && keys.maps > 0
        ? {
            maps: keys.maps,
            entries: keys.entries,
            keyBytes: keys.keyBytes,
            valueBytes: keys.valueBytes,
            mapOverheadBytes: keys.mapOverheadBytes,
            distinctKeys: keys.distinctKeys,
            topKeys: keys.topKeys.map((k) => ({ key: k.key, count: k.count, bytes: k.bytes })),
            schema: { ...keys.schema },
          }
        : null,
    fields: fields.fields,
    patterns: fields.patterns,
    error: index.error ? { code: index.error.code, offset: index.error.offset, message: index.error.message } : null,
  };
}
