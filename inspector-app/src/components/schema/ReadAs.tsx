import type { ReactElement } from 'react';
import type { TreeNode } from '../../worker/api.js';

/**
 * "Read as" on a raw Protobuf length-delimited field: the reading shown first, the other
 * readings that fit one click away. Choosing one re-indexes the frame with that field read so.
 */
export function ReadAs(props: {
  readonly node: TreeNode;
  readonly onReadAs: (node: TreeNode, reading: string) => void;
}): ReactElement | null {
  const { node } = props;
  if (!node.readings || node.readings.length < 2) return null;
  return (
    <span className="ws-read-as" role="group" aria-label="Read this field as">
      <span className="ws-muted-text">read as</span>
      {node.readings.map((r, i) => (
        <button
          key={r}
          type="button"
          aria-pressed={i === 0}
          disabled={i === 0}
          data-testid={`read-as-${r}`}
          onClick={() => props.onReadAs(node, r)}
        >
          {r}
        </button>
      ))}
    </span>
  );
}

/** The frame's format with one more read-as choice (`protobuf:<offset>=<reading>,…`). */
export function withReading(format: string, offset: number, reading: string): `protobuf:${string}` {
  const parts = new Map<number, string>();
  if (format.startsWith('protobuf:')) {
    for (const p of format.slice('protobuf:'.length).split(',')) {
      const [at, r] = p.split('=');
      if (at && r) parts.set(Number(at), r);
    }
  }
  parts.set(offset, reading);
  return `protobuf:${[...parts]
    .sort((a, b) => a[0] - b[0])
    .map(([at, r]) => `${at}=${r}`)
    .join(',')}`;
}
