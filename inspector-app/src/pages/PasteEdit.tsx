import { useEffect, useState, type ReactElement } from 'react';
import { FrameEditor } from '../components/compose/FrameEditor.js';
import { COMPOSE_SYNTAXES } from '../worker/compose-text.js';
import type { WorkerClient } from '../worker/client.js';
import type { EditSource, EditSyntax } from '../worker/edit-text.js';

/**
 * The paste page's edit: the pasted frame in its own encoding in the shared frame editor,
 * the difference from the pasted bytes shown; "Show the edit" makes the new bytes the page's
 * frame (and its link).
 */
export function PasteEdit(props: {
  worker: Pick<WorkerClient, 'call'>;
  bytes: Uint8Array;
  isText: boolean;
  onApply: (bytes: Uint8Array, syntax: EditSyntax) => void;
  onClose: () => void;
}): ReactElement {
  const { worker, bytes, isText } = props;
  const [source, setSource] = useState<EditSource | null>(null);
  useEffect(() => {
    let live = true;
    void worker.call('composeSource', { data: bytes, isText }).then((s) => {
      if (live) setSource(s);
    });
    return () => {
      live = false;
    };
  }, [worker, bytes, isText]);

  return (
    <section className="ws-paste-edit" aria-label="Edit the pasted frame" data-testid="paste-edit">
      {source ? (
        <FrameEditor
          label="Edit the frame"
          initial={source}
          syntaxes={COMPOSE_SYNTAXES}
          encode={(syntax, text) => worker.call('composeBytes', { syntax, text, original: bytes })}
          switchText={(from, text, to) => worker.call('composeSwitch', { from, text, to })}
          badTextNote="no new bytes and no new link until the text reads"
        >
          {({ syntax, bytes: edited }) => (
            <>
              <button
                type="button"
                data-testid="paste-edit-apply"
                disabled={!edited}
                title="Show the edited bytes decoded, with a link that carries them"
                onClick={() => edited && props.onApply(edited, syntax)}
              >
                Show the edit
              </button>
              <button type="button" onClick={props.onClose}>
                Cancel
              </button>
            </>
          )}
        </FrameEditor>
      ) : (
        <p className="ws-muted">reading the frame…</p>
      )}
    </section>
  );
}
