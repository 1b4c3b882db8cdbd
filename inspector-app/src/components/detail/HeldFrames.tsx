import { useState, type ReactElement } from 'react';
import type { Direction, HoldActionKind, HoldState } from '../../protocol/messages.js';
import type { ConnectionHolds } from '../../state/capture-model.js';
import type { FrameActionClient } from '../../state/frame-action-client.js';
import type { FrameSummary } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { formatBytes } from '../shell/format.js';
import { EditAndSend } from './EditAndSend.js';

const DONE: Record<HoldActionKind, string> = {
  forward: 'forwarded',
  edit: 'edited and forwarded',
  drop: 'dropped',
  'forward-all': 'all forwarded',
};

/** The held frame's editor forwards the new bytes in the held frame's place: its button says so, not "Send". */
const EDIT_AND_FORWARD = { group: 'Edit and forward', button: 'Forward the edit' } as const;

/**
 * What intercept rules hold on the selected frame's connection, per direction: "N held", and
 * Forward / Edit and forward / Drop for the first held frame (frames go in order), Forward all.
 * Edit and forward edits the first held frame in its own encoding (the Edit and send editor),
 * so it is offered with that frame selected. Sent frames lost because their socket closed
 * while held are said, never silent.
 */
export function HeldFrames(props: {
  worker: Pick<WorkerClient, 'call'>;
  frame: Pick<FrameSummary, 'frameId' | 'connectionId' | 'opcode'>;
  holds: ConnectionHolds | undefined;
  client: Pick<FrameActionClient, 'hold'>;
  /** The listed frame that is held frame `seq` of this connection in `direction`. */
  headFrameId: (direction: Direction, seq: number) => number | undefined;
  onSelect: (frameId: number) => void;
}): ReactElement | null {
  const states = [props.holds?.sent, props.holds?.received].filter(
    (s): s is HoldState => s !== undefined && (s.held > 0 || s.lost > 0),
  );
  if (states.length === 0) return null;
  return (
    <>
      {states.map((s) => (
        <HeldLane key={s.direction} {...props} state={s} />
      ))}
    </>
  );
}

function HeldLane(props: Parameters<typeof HeldFrames>[0] & { state: HoldState }): ReactElement {
  const { state, frame, client, worker } = props;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [editing, setEditing] = useState(false);
  const headId = state.head > 0 ? props.headFrameId(state.direction, state.head) : undefined;
  const isHead = headId === frame.frameId;
  const run = async (action: HoldActionKind) => {
    setBusy(true);
    setOutcome(null);
    try {
      const r = await client.hold({
        action,
        connectionId: frame.connectionId,
        direction: state.direction,
        seq: state.head,
      });
      setOutcome(
        r.ok ? { ok: true, text: DONE[action] } : { ok: false, text: `not ${DONE[action]}: ${r.error ?? ''}` },
      );
    } finally {
      setBusy(false);
    }
  };
  const label = state.direction === 'sent' ? 'sent' : 'received';
  return (
    <>
      <div
        className="ws-toolbar"
        role="group"
        aria-label={`Held ${label} frames`}
        data-testid="held-frames"
        data-direction={state.direction}
      >
        <span role="status" data-testid="held-count">
          {state.held} held ({label}, {formatBytes(state.heldBytes)})
        </span>
        {state.held > 0 && (
          <>
            <button
              type="button"
              disabled={busy}
              title="Let the first held frame go on (to the server, or to the page's listeners)"
              onClick={() => void run('forward')}
            >
              Forward
            </button>
            <button
              type="button"
              aria-expanded={editing}
              disabled={busy || headId === undefined}
              title={
                isHead
                  ? 'Edit the first held frame in its own encoding, then forward the new bytes instead'
                  : 'Edit the first held frame (selects it first)'
              }
              onClick={() => {
                setOutcome(null);
                if (!isHead && headId !== undefined) props.onSelect(headId);
                else setEditing(!editing);
              }}
            >
              Edit and forward
            </button>
            <button
              type="button"
              disabled={busy}
              title="Discard the first held frame (it never reaches the server or the page)"
              onClick={() => void run('drop')}
            >
              Drop
            </button>
            <button
              type="button"
              disabled={busy}
              title="Let every held frame go on, in order"
              onClick={() => void run('forward-all')}
            >
              Forward all
            </button>
          </>
        )}
        {state.lost > 0 && (
          <span role="alert" className="ws-error" data-testid="held-lost">
            {state.lost} held {label} {state.lost === 1 ? 'frame' : 'frames'} not sent: the socket closed
          </span>
        )}
        {outcome && (
          <span role="status" className={outcome.ok ? undefined : 'ws-error'} data-testid="held-outcome">
            {outcome.text}
          </span>
        )}
      </div>
      {editing && isHead && (
        <EditAndSend
          worker={worker}
          frame={frame}
          host={{
            kinds: ['send'],
            client: {
              act: (r) =>
                client.hold({
                  action: 'edit',
                  connectionId: frame.connectionId,
                  direction: state.direction,
                  seq: state.head,
                  opcode: r.opcode,
                  data: r.data,
                }),
            },
          }}
          purpose={EDIT_AND_FORWARD}
          onClose={() => setEditing(false)}
          onOutcome={(ok, text) => setOutcome({ ok, text: ok ? 'edited and forwarded' : text })}
        />
      )}
    </>
  );
}
