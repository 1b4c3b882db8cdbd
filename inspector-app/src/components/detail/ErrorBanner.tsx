import type { ReactElement } from 'react';
import type { FrameError } from '../../worker/api.js';

/** A malformed frame: what failed and where, above the partial tree and the marked hex. */
export function ErrorBanner(props: {
  error: FrameError;
  format: string | null;
  onShowByte?: (offset: number) => void;
}): ReactElement {
  const { error, format, onShowByte } = props;
  return (
    <div className="ws-banner-error" role="alert" data-testid="error-banner" data-offset={error.offset}>
      <strong>{format ? `Malformed ${format}` : 'Undecodable frame'}</strong>: {error.message}{' '}
      {/* The message already says "at byte N": add only what it lacks. */}
      <span className="ws-mono">
        ({error.code}
        {error.message.includes(`byte ${error.offset}`) ? '' : `, at byte ${error.offset}`}, 0x
        {error.offset.toString(16)})
      </span>
      {onShowByte && (
        <button type="button" style={{ marginLeft: 8 }} onClick={() => onShowByte(error.offset)}>
          show byte
        </button>
      )}
      <div style={{ color: 'var(--ws-muted)' }}>
        The tree below is the part that decoded; try another decoder with the format switcher.
      </div>
    </div>
  );
}
