import { useEffect, useId, useState, type ReactElement } from 'react';
import type { FrameActionKind, Opcode } from '../../protocol/messages.js';
import type { ConnectionState } from '../../state/capture-model.js';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { COMPOSE_SYNTAXES } from '../../worker/compose-text.js';
import type { EditSyntax } from '../../worker/edit-text.js';
import type { PageActionsHost } from '../detail/page-actions-host.js';
import { FrameEditor } from './FrameEditor.js';
import { startOnSocket, type SocketStart } from './socket-start.js';
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
  onClose: () => void;
}): ReactElement {
  const { worker, host, connections, rows, labels } = props;
  const all = [...connections.values()];
  const open = all.filter((c) => c.status === 'open');
  const [chosen, setChosen] = useState('');
  const connectionId = connections.has(chosen) ? chosen : (open.at(-1)?.connectionId ?? all.at(-1)?.connectionId ?? '');
  const connection = connections.get(connectionId);
  const isOpen = connection?.status === 'open';
  const [start, setStart] = useState<SocketStart | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const socketId = useId();

  // The starting text is chosen once per socket: frames arriving meanwhile do not replace what is typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once when the socket changes
  useEffect(() => {
    if (!connectionId) return setStart(null);
    let live = true;
    setStart(null);
    void startOnSocket(worker, rows, connectionId).then((s) => {
      if (live) setStart(s);
    });
    return () => {
      live = false;
    };
  }, [worker, connectionId]);

  const act = async (action: FrameActionKind, syntax: EditSyntax, data: Uint8Array) => {
    if (!start) return;
    setBusy(true);
    setOutcome(null);
    try {
      const result = await host.client.act({ action, connectionId, opcode: opcodeFor(syntax, start), data });
      setOutcome(
        result.ok
          ? { ok: true, text: `${data.length} B ${DONE[action]}` }
          : { ok: false, text: `not ${DONE[action]}: ${result.error ?? ''}` },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="ws-new-message" aria-label={props.title} data-testid="new-message">
      <div className="ws-new-message-head">
        <label htmlFor={socketId}>{props.title} on</label>
        <select
          id={socketId}
          data-testid="new-message-socket"
          value={connectionId}
          onChange={(e) => {
            setChosen(e.target.value);
            setOutcome(null);
          }}
        >
          {all.length === 0 && <option value="">no socket yet</option>}
          {all.map((c) => (
            <option key={c.connectionId} value={c.connectionId} disabled={c.status !== 'open'}>
              {labels.get(c.connectionId) ?? c.connectionId} {c.url}
              {c.status === 'open' ? '' : ` — ${c.status}`}
            </option>
          ))}
        </select>
        <button type="button" className="ws-new-message-close" onClick={props.onClose}>
          Close
        </button>
      </div>
      {connection && !isOpen && (
        <p role="status" className="ws-error" data-testid="new-message-closed">
          {labels.get(connectionId) ?? connectionId} is {connection.status}: nothing can be sent on it.
        </p>
      )}
      {!connection && (
        <p role="status" className="ws-muted">
          No socket yet: a message needs a socket the page has open.
        </p>
      )}
      {connection && start && (
        <FrameEditor
          key={`${connectionId}:${start.fromFrameId ?? ''}`}
          label="Message"
          initial={start}
          syntaxes={COMPOSE_SYNTAXES}
          encode={(syntax, text) => worker.call('composeBytes', { syntax, text, original: start.original })}
          switchText={(from, text, to) => worker.call('composeSwitch', { from, text, to })}
        >
          {({ syntax, bytes }) => (
            <>
              <button
                type="button"
                disabled={!bytes || !isOpen || busy}
                onClick={() => bytes && void act('send', syntax, bytes)}
              >
                Send
              </button>
              {host.kinds.includes('deliver') && (
                <button
                  type="button"
                  disabled={!bytes || !isOpen || busy}
                  title="Hand these bytes to the page's message listeners, as if the server had sent them"
                  onClick={() => bytes && void act('deliver', syntax, bytes)}
                >
                  Deliver to page
                </button>
              )}
              <span className="ws-muted">
                as a {opcodeFor(syntax, start)} frame
                {start.fromFrameId !== null ? `, started from frame #${start.fromFrameId}` : ''}
              </span>
              {outcome && (
                <span role="status" className={outcome.ok ? undefined : 'ws-error'} data-testid="new-message-outcome">
                  {outcome.text}
                </span>
              )}
            </>
          )}
        </FrameEditor>
      )}
    </section>
  );
}
