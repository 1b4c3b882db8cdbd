import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { FormatChoice, TreeNode } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { copyText, type ClipboardLike } from '../shell/copyText.js';
import { toHex } from '../detail/clipboard.js';

export interface NodeActionsProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  readonly node: TreeNode;
  /** The frame's bytes (the node's hex is a slice of them), or null while loading. */
  readonly bytes: Uint8Array | null;
  /** Where copies go (tests pass their own). */
  readonly clipboard?: ClipboardLike | null;
}

/** Copy the selected node: its value as JSON or EDN, its bytes as hex, or its path. */
export function NodeActions(props: NodeActionsProps): ReactElement {
  const { client, frameId, format, node, bytes } = props;
  const clipboard = props.clipboard === undefined ? globalThis.navigator?.clipboard : props.clipboard;
  const [notice, setNotice] = useState('');
  // One timer: a newer notice is shown its full time, not cut short by an older one's.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const put = async (what: string, text: string) => {
    setNotice((await copyText(text, clipboard)) ? `copied ${what}` : 'copy refused');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setNotice(''), 1500);
  };
  const copyValue = async (mode: 'json' | 'edn') => {
    const r = await client.call('text', { frameId, format, nodeId: node.id, mode });
    await put(`${mode.toUpperCase()}${r.truncated ? ' (cut)' : ''}`, r.text);
  };

  // The field's bytes: its key item too when it has one (what the row's size counts).
  const lo = node.keyStart >= 0 ? Math.min(node.keyStart, node.start) : node.start;

  return (
    <span className="ws-node-actions" role="group" aria-label="Copy the selected node">
      <span className="ws-muted-text">copy node</span>
      <button type="button" data-testid="copy-node-json" onClick={() => void copyValue('json')}>
        JSON
      </button>
      <button type="button" data-testid="copy-node-edn" onClick={() => void copyValue('edn')}>
        EDN
      </button>
      <button
        type="button"
        data-testid="copy-node-hex"
        disabled={!bytes}
        onClick={() => bytes && void put('hex', toHex(bytes.subarray(lo, node.end)))}
      >
        hex
      </button>
      <button type="button" data-testid="copy-node-path" onClick={() => void put('path', node.path)}>
        path
      </button>
      {notice && (
        <span role="status" data-testid="node-copy-notice">
          {notice}
        </span>
      )}
    </span>
  );
}
