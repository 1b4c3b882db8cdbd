import { useCallback, useContext, useEffect, useRef, useState, type ReactElement } from 'react';
import type { FrameActionKind } from '../../protocol/messages.js';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { actOutcomeText, actWithAttachments } from './act-with-attachments.js';
import { EditAndSend } from './EditAndSend.js';
import { EditorFoldContext } from '../compose/editor-fold.js';
import type { PageActionsHost } from './page-actions-host.js';
import type { PageActionRequest } from './FrameMenu.js';

/** What a host lets the panel do with a frame on the page, and who carries it out. */
export type { PageActionsHost } from './page-actions-host.js';

const LABEL: Record<FrameActionKind, string> = { send: 'Send again', deliver: 'Deliver to page' };
const TITLE: Record<FrameActionKind, string> = {
  send: "Send these bytes again on the frame's socket, as the page's own send would",
  deliver: "Hand these bytes to the page's message listeners, as if the server had sent them",
};
const DONE: Record<FrameActionKind, string> = { send: 'sent again', deliver: 'delivered to the page' };

/**
 * Send again, Edit and send (hosts that can send) and Deliver to page for one frame (hosts with `frameActions`), with what
 * happened said beside them: done, or why not (a closed socket, actions turned off…).
 */
export function PageActions(props: {
  worker: Pick<WorkerClient, 'call'>;
  frame: Pick<FrameSummary, 'frameId' | 'connectionId' | 'opcode' | 'lost'>;
  host: PageActionsHost;
  /** An action chosen in the list's context menu for this frame: run once per `seq`. */
  request?: PageActionRequest;
  /** Why none of the actions can work on this frame's socket, known without asking the page (absent: they may try). */
  blocked?: string;
  /** The state of the frame's connection: what was done on it is no longer said once it changes (a failure stays). */
  connectionStatus?: string;
}): ReactElement | null {
  const { worker, frame, host, request, blocked, connectionStatus } = props;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [editing, setEditing] = useState(false);
  const clearOutcome = useCallback(() => setOutcome(null), []);
  const fold = useContext(EditorFoldContext);
  const run = async (action: FrameActionKind) => {
    setBusy(true);
    setOutcome(null);
    try {
      const data = await worker.call('bytes', { frameId: frame.frameId });
      if (!data) return setOutcome({ ok: false, text: 'the frame was evicted: its bytes are gone' });
      const result = await actWithAttachments(worker, host, frame, action, data);
      setOutcome({ ok: result.ok, text: actOutcomeText(result, DONE[action], `not ${DONE[action]}`) });
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => setOutcome((o) => (o?.ok ? null : o)), [connectionStatus]);
  const handled = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per request (`seq`), with this render's `run`
  useEffect(() => {
    if (!request || request.seq === handled.current || frame.frameId < 0 || frame.lost) return;
    handled.current = request.seq;
    if (blocked) return; // the reason is shown beside the buttons already
    if (request.action === 'edit') {
      setOutcome(null);
      setEditing(true);
    } else void run(request.action);
  }, [request]);
  if (frame.frameId < 0 || frame.lost) return null; // a live sample or a lost frame has no bytes to act with

  return (
    <>
      <div className="ws-toolbar" role="group" aria-label="Act on the page" data-testid="page-actions">
        {host.kinds.includes('send') && (
          <button
            type="button"
            disabled={busy || blocked !== undefined}
            title={blocked ? `Send again: ${blocked}` : TITLE.send}
            onClick={() => void run('send')}
          >
            {LABEL.send}
          </button>
        )}
        {host.kinds.includes('send') && (
          <button
            type="button"
            aria-expanded={editing}
            disabled={blocked !== undefined}
            title={
              blocked
                ? `Edit and send: ${blocked}`
                : 'Edit the frame in its own encoding (hex for any frame), see the new bytes, then send them on its socket'
            }
            onClick={() => {
              setOutcome(null);
              // Folded behind New message: the button brings the edit back instead of closing it.
              if (editing && fold.front === 'new-message') fold.bringToFront('edit-and-send');
              else setEditing(!editing);
            }}
          >
            Edit and send
          </button>
        )}
        {host.kinds.includes('deliver') && (
          <button
            type="button"
            disabled={busy || blocked !== undefined}
            title={blocked ? `Deliver to page: ${blocked}` : TITLE.deliver}
            onClick={() => void run('deliver')}
          >
            {LABEL.deliver}
          </button>
        )}
        {blocked && (
          <span role="note" className="ws-muted" data-testid="page-actions-blocked">
            {blocked}
          </span>
        )}
        {outcome && !blocked && (
          <span role="status" className={outcome.ok ? undefined : 'ws-error'} data-testid="page-action-outcome">
            {outcome.text}
          </span>
        )}
      </div>
      {editing && !blocked && (
        <EditAndSend
          worker={worker}
          frame={frame}
          host={host}
          onClose={() => setEditing(false)}
          onOutcome={(ok, text) => setOutcome({ ok, text })}
          onEdited={clearOutcome}
        />
      )}
    </>
  );
}
