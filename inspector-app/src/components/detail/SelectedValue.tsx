import type { ReactElement } from 'react';
import type { FormatChoice, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useWorkerCall } from '../shell/use-worker-call.js';

/** Longer than this, a selected scalar's value is shown whole above the tree (its row's cell cuts it). */
export const LONG_VALUE_CHARS = 40;

/**
 * A long scalar's whole value, wrapped, in the tree's notation: asked of the worker, since
 * the row carries only its preview (cut at about 80 characters). The preview stands in meanwhile.
 */
export function SelectedValue(props: {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  readonly node: TreeNode;
}): ReactElement {
  const { client, frameId, format, node } = props;
  // Text as the row quotes it (JSON: no EDN encoding indicator after the string); bytes, tags,
  // numbers and the rest in EDN (h'…', 1(…)), as the row shows them.
  const mode = node.kind === 'text' ? 'json' : 'edn';
  const whole = useWorkerCall(
    () => client.call('text', { frameId, format, nodeId: node.id, mode }),
    [client, frameId, format, node.id, mode],
  );
  const text = whole.status === 'ready' ? whole.value.text : node.preview;
  const cut = whole.status === 'ready' && whole.value.truncated;
  return (
    <div className="ws-node-value ws-mono" data-testid="selected-value" data-state={whole.status}>
      {text}
      {cut && <span className="ws-muted-text"> (cut: copy it with JSON or EDN above)</span>}
    </div>
  );
}
