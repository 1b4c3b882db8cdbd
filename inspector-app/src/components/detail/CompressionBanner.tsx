import type { ReactElement } from 'react';
import type { FrameCompression } from '../../worker/api.js';

/**
 * A compressed frame: how it was compressed and the ratio, and which bytes the hex view
 * shows. The tree's offsets are in the decompressed stream, so the hex view highlights
 * nodes only over the decompressed bytes; the compressed bytes (the default, as captured)
 * are shown plain.
 */
export function CompressionBanner(props: {
  compression: FrameCompression;
  decompressed: boolean;
  onDecompressed: (on: boolean) => void;
}): ReactElement {
  const { compression, decompressed, onDecompressed } = props;
  return (
    <div className="ws-banner-info" role="status" data-testid="compression-banner">
      <strong>{compression.summary}</strong>
      {' · '}
      {decompressed
        ? 'hex shows the decompressed bytes (node offsets are in them)'
        : 'hex shows the compressed bytes as captured; node offsets are in the decompressed stream'}{' '}
      <button
        type="button"
        aria-pressed={decompressed}
        onClick={() => onDecompressed(!decompressed)}
        data-testid="hex-decompressed-toggle"
        style={{ marginLeft: 8 }}
      >
        decompressed bytes
      </button>
    </div>
  );
}
