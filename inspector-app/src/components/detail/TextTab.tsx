import { useState, type ReactElement } from 'react';
import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { CodeView } from '../text/CodeView.js';
import { copyText, type ClipboardLike } from '../shell/copyText.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import './text-tab.css';

export interface TextTabProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  /** The frame's root node, or null when the frame did not decode. */
  readonly rootId: number | null;
  /** The node selected in the tree (null or the root: nothing narrower than the frame). */
  readonly selection: { readonly id: number; readonly path: string } | null;
  /** Why nothing decoded the frame (shown when rootId is null). */
  readonly reason: string;
  readonly mode: 'json' | 'edn';
  readonly onMode: (mode: 'json' | 'edn') => void;
  readonly scope: 'frame' | 'selection';
  readonly onScope: (scope: 'frame' | 'selection') => void;
  readonly theme: 'light' | 'dark';
  readonly clipboard?: ClipboardLike | null;
}

type Raw = 'raw-text' | 'raw-hex';

/**
 * The frame as JSON or EDN (read-only Monaco), the whole frame unless the user picks the
 * tree's selection; Copy copies exactly what is shown. A frame that did not decode says why
 * and shows its bytes as text or hex instead.
 */
export function TextTab(props: TextTabProps): ReactElement {
  const { client, frameId, format, rootId, selection, reason, mode, scope, theme } = props;
  // The bytes as text or hex: the only view when nothing decoded, a choice when the frame is malformed.
  const [raw, setRaw] = useState<Raw | null>(rootId === null ? 'raw-hex' : null);
  const [notice, setNotice] = useState('');
  const narrow = selection !== null && selection.id !== rootId;
  const nodeId = scope === 'selection' && narrow ? selection.id : (rootId ?? -1);
  const shownRaw = rootId === null ? (raw ?? 'raw-hex') : raw;
  const request = shownRaw ?? (mode === 'edn' ? 'edn-pretty' : mode);

  const text = useWorkerCall(
    () => client.call('text', { frameId, format, nodeId, mode: request }),
    [client, frameId, format, nodeId, request],
  );
  const result = text.status === 'ready' ? text.value : null;

  const copy = async () => {
    if (!result) return;
    const clipboard =
      props.clipboard === undefined ? (typeof navigator !== 'undefined' ? navigator.clipboard : null) : props.clipboard;
    const ok = await copyText(result.text, clipboard);
    setNotice(ok ? `copied${result.truncated ? ' (cut)' : ''}` : 'copy refused');
    setTimeout(() => setNotice(''), 1500);
  };
  const copyLabel = `Copy shown ${shownRaw ? (shownRaw === 'raw-hex' ? 'hex' : 'text') : mode === 'json' ? 'JSON' : 'EDN'}`;

  return (
    <div className="ws-text-tab" data-testid="text-tab">
      {(rootId === null || reason) && (
        <div className="ws-toolbar" data-testid="text-undecodable">
          <span>
            {rootId === null
              ? `Nothing decoded this frame as a value${reason ? ` (${reason})` : ''}.`
              : `Malformed: ${reason}. The value shown is the part that decoded.`}{' '}
            Show
          </span>
          <span role="radiogroup" aria-label="Show the frame as">
            {rootId !== null && (
              <button type="button" role="radio" aria-checked={shownRaw === null} onClick={() => setRaw(null)}>
                what decoded
              </button>
            )}
            {(['raw-text', 'raw-hex'] as const).map((r) => (
              <button key={r} type="button" role="radio" aria-checked={shownRaw === r} onClick={() => setRaw(r)}>
                {r === 'raw-text' ? 'text' : 'hex'}
              </button>
            ))}
          </span>
        </div>
      )}
      {rootId !== null && shownRaw === null && (
        <div className="ws-toolbar">
          <span role="radiogroup" aria-label="Text notation">
            {(['json', 'edn'] as const).map((m) => (
              <button key={m} type="button" role="radio" aria-checked={mode === m} onClick={() => props.onMode(m)}>
                {m === 'json' ? 'JSON' : 'EDN (RFC 8949 §8)'}
              </button>
            ))}
          </span>
          <span role="radiogroup" aria-label="What to show">
            <button
              type="button"
              role="radio"
              aria-checked={!narrow || scope === 'frame'}
              onClick={() => props.onScope('frame')}
            >
              whole frame
            </button>
            {narrow && (
              <button
                type="button"
                role="radio"
                aria-checked={scope === 'selection'}
                onClick={() => props.onScope('selection')}
              >
                selection: {selection.path}
              </button>
            )}
          </span>
        </div>
      )}
      <div className="ws-toolbar">
        {shownRaw === null && mode === 'json' ? (
          <span className="ws-muted" data-testid="json-mapping-note">
            JSON cannot hold everything: byte strings show as "h'…'", tags as {'{"tag(N)": …}'}, non-string keys as
            their JSON text, big integers as exact digits, undefined as "undefined". EDN shows the value exactly.
          </span>
        ) : (
          <span className="ws-spacer" />
        )}
        <button type="button" onClick={() => void copy()} disabled={!result}>
          {copyLabel}
        </button>
        {notice && <span role="status">{notice}</span>}
      </div>
      {result ? (
        <CodeView
          text={result.text}
          language={shownRaw ? 'plaintext' : mode}
          theme={theme}
          truncated={result.truncated}
          testId="text-view"
        />
      ) : text.status === 'error' ? (
        <p className="ws-error" role="alert">
          {text.error}
        </p>
      ) : (
        <div className="ws-empty">rendering…</div>
      )}
    </div>
  );
}
