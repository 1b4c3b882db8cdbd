import { useState, type ReactElement } from 'react';
import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { HexView, type HexViewProps } from './HexView.js';
import { AnnotatedHex } from './AnnotatedHex.js';

export type HexMode = 'grid' | 'annotated';

/** The Hex tab: the byte grid linked to the tree, or the annotated dump. */
export function HexTab(props: {
  client: Pick<WorkerClient, 'call'>;
  frameId: number;
  format: FormatChoice;
  hex: Omit<HexViewProps, 'bytes'>;
  bytes: Uint8Array | null;
}): ReactElement {
  const { client, frameId, format, hex, bytes } = props;
  const [mode, setMode] = useState<HexMode>('grid');
  return (
    <div className="hex-tab">
      <div className="ws-toolbar" role="group" aria-label="Hex layout">
        <button
          type="button"
          aria-pressed={mode === 'grid'}
          onClick={() => setMode('grid')}
          data-testid="hex-mode-grid"
        >
          Bytes
        </button>
        <button
          type="button"
          aria-pressed={mode === 'annotated'}
          onClick={() => setMode('annotated')}
          data-testid="hex-mode-annotated"
        >
          Annotated
        </button>
        <span className="ws-muted-text">
          {mode === 'annotated'
            ? 'each item’s head, argument and payload on its own line, with offset and size'
            : 'click a byte to select its node'}
        </span>
      </div>
      {mode === 'annotated' ? (
        <AnnotatedHex client={client} frameId={frameId} format={format} />
      ) : bytes ? (
        <HexView bytes={bytes} {...hex} />
      ) : (
        <div className="ws-empty">loading bytes…</div>
      )}
    </div>
  );
}
