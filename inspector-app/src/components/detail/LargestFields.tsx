import type { ReactElement } from 'react';
import type { LargestField } from '../../worker/api.js';
import { exactBytes, formatBytes } from '../shell/format.js';
import { formatShare } from '../bytes/share.js';

/**
 * The heaviest fields of the frame by path pattern (`$.users[*].avatarHash`: summed over the
 * array's elements); each row is a button (Tab / Enter) that selects its first occurrence in the tree.
 */
export function LargestFields(props: {
  fields: readonly LargestField[] | null;
  frameSize: number;
  onPick: (field: LargestField) => void;
}): ReactElement {
  const { fields, frameSize, onPick } = props;
  return (
    <div className="ws-largest" role="region" aria-label="Largest fields" data-testid="largest-fields">
      {fields === null ? (
        'measuring…'
      ) : (
        <ul>
          {fields.map((f) => (
            <li key={f.nodeId}>
              <button type="button" className="ws-largest-row" onClick={() => onPick(f)} data-testid="largest-row">
                <span className="ws-mono ws-largest-path">{f.path}</span>
                <span className="ws-muted-text" title="occurrences summed">
                  {f.count > 1 ? `×${f.count.toLocaleString('en-US')}` : ''}
                </span>
                <span title={exactBytes(f.size)}>{formatBytes(f.size)}</span>
                <span className="ws-largest-share">{formatShare(f.size, frameSize)}</span>
              </button>
            </li>
          ))}
          <li className="ws-muted-text">
            Fields summed over array elements ([*]); under 0.05 % of the frame not listed. The Bytes tab draws them all.
          </li>
        </ul>
      )}
    </div>
  );
}
