import type { ReactElement } from 'react';
import type { LargestField } from '../../worker/api.js';
import { exactBytes, formatBytes, percent } from '../shell/format.js';

/** The heaviest fields of the frame; each row is a button (Tab / Enter) that selects it in the tree. */
export function LargestFields(props: { fields: readonly LargestField[] | null; frameSize: number; onPick: (field: LargestField) => void }): ReactElement {
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
                <span className="ws-largest-share">{percent(f.size, frameSize)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
