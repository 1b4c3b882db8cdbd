import type { ReactElement } from 'react';
import type { LargestField } from '../../worker/api.js';
import { exactBytes, formatBytes } from '../shell/format.js';
import { formatShare } from '../bytes/share.js';

/** The heaviest fields of the frame; each row is a button (Tab / Enter) that selects it in the tree. */
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
                <span title={exactBytes(f.size)}>{formatBytes(f.size)}</span>
                <span className="ws-largest-share">{formatShare(f.size, frameSize)}</span>
              </button>
            </li>
          ))}
          <li className="ws-muted-text">
            Fields under 0.05 % of the frame are not listed; the Bytes tab sums repeated ones by field.
          </li>
        </ul>
      )}
    </div>
  );
}
