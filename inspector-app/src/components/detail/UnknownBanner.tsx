import type { ReactElement } from 'react';
import type { FrameDecode } from '../../worker/api.js';

/**
 * A frame no decoder reads whole with good confidence (Protobuf, a Phoenix binary push, a
 * proprietary layout): said plainly, not as "malformed CBOR". The nearest readings and the
 * printable strings in the bytes are the clues; "decode as" forces any reading.
 */
export function UnknownBanner(props: { decoded: FrameDecode; onDecodeAs?: (format: string) => void }): ReactElement {
  const { decoded, onDecodeAs } = props;
  const nearMisses = decoded.nearMisses ?? [];
  const strings = decoded.strings ?? [];
  return (
    <div className="ws-banner-info" role="status" data-testid="unknown-banner">
      <strong>Unknown format</strong>: no decoder reads the whole frame with good confidence. The hex view shows every
      byte.
      {nearMisses.length > 0 && (
        <div>
          Nearest readings:{' '}
          {nearMisses.map((r, i) => (
            <span key={r.format}>
              {i > 0 && ' · '}
              {onDecodeAs ? (
                <button type="button" className="ws-link-button" title={r.message} onClick={() => onDecodeAs(r.format)}>
                  {r.format}
                </button>
              ) : (
                r.format
              )}{' '}
              stops at byte {r.offset}
            </span>
          ))}
        </div>
      )}
      {strings.length > 0 && (
        <div data-testid="unknown-strings">
          Strings found: <span className="ws-mono">{strings.map((s) => JSON.stringify(s)).join(' ')}</span>
        </div>
      )}
    </div>
  );
}
