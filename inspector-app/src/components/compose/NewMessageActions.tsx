import type { ReactElement } from 'react';
import type { FrameActionKind, Opcode } from '../../protocol/messages.js';
import type { EditSyntax } from '../../worker/edit-text.js';
import { DraftWatch } from './DraftWatch.js';
import type { FrameEditorState } from './FrameEditor.js';

/** What the last Send or Deliver gave, and the draft (syntax and text) it was for. */
export interface ActOutcome {
  readonly ok: boolean;
  readonly text: string;
  readonly syntax: EditSyntax;
  readonly draft: string;
}

/**
 * New message's buttons under the editor: Send (and Deliver to page where the host can),
 * never on an empty text (an empty hex text is a 0-byte frame, one click from being sent),
 * the frame kind, and the outcome of the last action. The draft is reported on every change,
 * so the owner can drop an outcome that no longer speaks of what is shown.
 */
export function NewMessageActions(props: {
  state: FrameEditorState;
  canDeliver: boolean;
  /** The socket is open and nothing is being sent. */
  ready: boolean;
  /** Why neither Send nor Deliver may act (the options turned actions off), shown beside them; absent: they may. */
  blocked?: string;
  opcode: Opcode;
  fromFrameId: number | null;
  outcome: ActOutcome | null;
  onAct: (action: FrameActionKind, syntax: EditSyntax, draft: string, bytes: Uint8Array) => void;
  onDraft: (syntax: EditSyntax, draft: string) => void;
}): ReactElement {
  const { syntax, text, bytes } = props.state;
  const empty = text.trim() === '';
  const { blocked } = props;
  const disabled = !bytes || empty || !props.ready || blocked !== undefined;
  const act = (action: FrameActionKind) => {
    if (bytes && !disabled) props.onAct(action, syntax, text, bytes);
  };
  return (
    <>
      <DraftWatch syntax={syntax} text={text} onChange={props.onDraft} />
      <button
        type="button"
        disabled={disabled}
        title={
          blocked ? `Send: ${blocked}` : empty ? 'Write the message first: an empty text sends nothing' : undefined
        }
        onClick={() => act('send')}
      >
        Send
      </button>
      {props.canDeliver && (
        <button
          type="button"
          disabled={disabled}
          title={
            blocked
              ? `Deliver to page: ${blocked}`
              : "Hand these bytes to the page's message listeners, as if the server had sent them"
          }
          onClick={() => act('deliver')}
        >
          Deliver to page
        </button>
      )}
      <span className="ws-muted">
        as a {props.opcode} frame
        {props.fromFrameId !== null ? `, started from frame #${props.fromFrameId}` : ''}
      </span>
      {blocked && (
        <span role="note" className="ws-muted" data-testid="new-message-blocked">
          {blocked}
        </span>
      )}
      {props.outcome && (
        <span role="status" className={props.outcome.ok ? undefined : 'ws-error'} data-testid="new-message-outcome">
          {props.outcome.text}
        </span>
      )}
    </>
  );
}
