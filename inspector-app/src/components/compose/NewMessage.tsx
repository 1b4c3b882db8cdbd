import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactElement } from 'react';
import type { FrameActionKind, Opcode } from '../../protocol/messages.js';
import type { ConnectionState } from '../../state/capture-model.js';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { COMPOSE_SYNTAXES } from '../../worker/compose-text.js';
import type { EditSyntax } from '../../worker/edit-text.js';
import { pageActionBlocked } from '../detail/page-action-blocked.js';
import type { PageActionsHost } from '../detail/page-actions-host.js';
import { useEditorFold } from './editor-fold.js';
import { FrameEditor } from './FrameEditor.js';
import { type ActOutcome, NewMessageActions } from './NewMessageActions.js';
import { startBasis, startOnSocket, type SocketStart } from './socket-start.js';
import './new-message.css';

const DONE: Record<FrameActionKind, string> = { send: 'sent', deliver: 'delivered to the page' };

/** A text frame for JSON text; the starting frame's own opcode for hex; binary otherwise. */
const opcodeFor = (syntax: EditSyntax, start: SocketStart): Opcode =>
  syntax === 'json' ? 'text' : syntax === 'hex' ? start.opcode : 'binary';

/**
 * A new frame on any socket the host can act on (New message in the panel, Compose in the
 * standalone inspector): the socket (closed ones listed, not choosable), the shared frame
 * editor in a format of choice — by default the one the socket's frames were in, starting
 * from its last sent frame — then Send (and Deliver to page where the host can) through the
 * host's own frame actions.
 */
export function NewMessage(props: {
  worker: Pick<WorkerClient, 'call'>;
  host: PageActionsHost;
  connections: ReadonlyMap<string, ConnectionState>;
  /** The frames listed, newest last: where a socket's format and last sent frame are found. */
  rows: readonly FrameSummary[];
  labels: ReadonlyMap<string, string>;
  /** The group's name: "New message" (panel) or "Compose" (inspector). */
  title: string;
  /** The options page's switch for actions on the page (false: Send and Deliver are off, saying why). */
  actionsAllowed?: boolean;
  /** What is said while there is no socket to send on, in the host's words. */
  noSocket: string;
  onClose: () => void;
}): ReactElement {
  const { worker, host, connections, rows, labels } = props;
  const all = [...connections.values()];
  const open = all.filter((c) => c.status === 'open');
  /** The socket picked, or the open one it started on: kept when it closes or another opens. */
  const [chosen, setChosen] = useState('');
  const connectionId = connections.has(chosen) ? chosen : (open.at(-1)?.connectionId ?? all.at(-1)?.connectionId ?? '');
  const connection = connections.get(connectionId);
  const isOpen = connection?.status === 'open';
  /** Where the editor starts, and the socket that start is for (a start for another socket is not shown). */
  const [started, setStarted] = useState<{ on: string; start: SocketStart } | null>(null);
  const start = started?.on === connectionId ? started.start : null;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActOutcome | null>(null);
  /** The draft as last shown: whether it is still the start, untouched. */
  const draft = useRef<{ syntax: EditSyntax; text: string } | null>(null);
  const socketId = useId();
  const bodyRef = useRef<HTMLDivElement>(null);
  const fold = useEditorFold('new-message');

  useEffect(() => {
    if (isOpen && chosen !== connectionId) setChosen(connectionId);
  }, [isOpen, chosen, connectionId]);

  // The starting text is chosen once per socket: frames arriving meanwhile do not replace what is typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once when the socket changes
  useEffect(() => {
    draft.current = null;
    if (!connectionId) return;
    let live = true;
    void startOnSocket(worker, rows, connectionId).then((s) => {
      if (live) setStarted({ on: connectionId, start: s });
    });
    return () => {
      live = false;
    };
  }, [worker, connectionId]);

  // While nothing is typed, the start follows the socket's frames (its first frame, a newer
  // sent frame, another format read last), so the editor shows what it would had it been
  // opened now: opened before Connect or after, it starts the same.
  const basis = useMemo(() => startBasis(rows, connectionId), [rows, connectionId]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useEffect(() => {
    if (!start || start.basis === basis) return;
    // Focus in the editor counts as touched: a new start would take the caret away.
    const untouched = () => {
      const shown = draft.current;
      if (bodyRef.current?.contains(document.activeElement)) return false;
      return !shown || (shown.syntax === start.syntax && shown.text === start.text);
    };
    if (!untouched()) return;
    let live = true;
    void startOnSocket(worker, rowsRef.current, connectionId).then((s) => {
      if (live && untouched()) setStarted({ on: connectionId, start: s });
    });
    return () => {
      live = false;
    };
  }, [worker, connectionId, start, basis]);

  // An outcome speaks of the bytes sent on an open socket: a change of socket or of its state ends it.
  useEffect(() => setOutcome(null), [connectionId, connection?.status]);

  const onDraft = useCallback((syntax: EditSyntax, text: string) => {
    draft.current = { syntax, text };
    setOutcome((o) => (o && (o.syntax !== syntax || o.draft !== text) ? null : o));
  }, []);

  const act = async (action: FrameActionKind, syntax: EditSyntax, text: string, data: Uint8Array) => {
    if (!start) return;
    setBusy(true);
    setOutcome(null);
    try {
      const result = await host.client.act({ action, connectionId, opcode: opcodeFor(syntax, start), data });
      setOutcome({
        ok: result.ok,
        text: result.ok ? `${data.length} B ${DONE[action]}` : `not ${DONE[action]}: ${result.error ?? ''}`,
        syntax,
        draft: text,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className="ws-new-message"
      aria-label={props.title}
      data-testid="new-message"
      data-folded={fold.folded || undefined}
    >
      <div className="ws-new-message-head">
        <label htmlFor={socketId}>{props.title} on</label>
        <select
          id={socketId}
          data-testid="new-message-socket"
          value={connectionId}
          onChange={(e) => setChosen(e.target.value)}
        >
          {all.length === 0 && <option value="">no socket yet</option>}
          {all.map((c) => (
            <option key={c.connectionId} value={c.connectionId} disabled={c.status !== 'open'}>
              {labels.get(c.connectionId) ?? c.connectionId} {c.url}
              {c.status === 'open' ? '' : ` — ${c.status}`}
            </option>
          ))}
        </select>
        {fold.folded && (
          <>
            <span className="ws-muted" data-testid="new-message-folded">
              folded while Edit and send is open, its draft kept
            </span>
            <button type="button" onClick={fold.show}>
              Show
            </button>
          </>
        )}
        <button type="button" className="ws-new-message-close" onClick={props.onClose}>
          Close
        </button>
      </div>
      <div ref={bodyRef} className="ws-new-message-body" hidden={fold.folded}>
        {connection && !isOpen && (
          <p role="status" className="ws-error" data-testid="new-message-closed">
            {labels.get(connectionId) ?? connectionId} is {connection.status}: nothing can be sent on it.
          </p>
        )}
        {!connection && (
          <p role="status" className="ws-muted" data-testid="new-message-no-socket">
            {props.noSocket}
          </p>
        )}
        {connection && start && (
          <FrameEditor
            key={`${connectionId}:${start.basis}`}
            label="Message"
            initial={start}
            syntaxes={COMPOSE_SYNTAXES}
            encode={(syntax, text) => worker.call('composeBytes', { syntax, text, original: start.original })}
            switchText={(from, text, to) => worker.call('composeSwitch', { from, text, to })}
          >
            {(state) => (
              <NewMessageActions
                state={state}
                canDeliver={host.kinds.includes('deliver')}
                ready={isOpen && !busy}
                blocked={props.actionsAllowed === false ? pageActionBlocked(undefined, false) : undefined}
                opcode={opcodeFor(state.syntax, start)}
                fromFrameId={start.fromFrameId}
                outcome={outcome}
                onAct={(action, syntax, text, bytes) => void act(action, syntax, text, bytes)}
                onDraft={onDraft}
              />
            )}
          </FrameEditor>
        )}
      </div>
    </section>
  );
}
