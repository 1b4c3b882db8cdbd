import { useEffect, useRef, useState, type ReactElement } from 'react';
import { ToolbarDialog } from '../shell/ToolbarDialog.js';
import type { SchemaState, SchemaTypeChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import type { ProtoSource, SchemaStorage } from './schema-storage.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import type { RereadState } from '../../state/capture-model.js';

export interface SchemasPanelProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly storage: SchemaStorage;
  /** Connections to pick a message type for: id and the label the list shows. */
  readonly connections: readonly { readonly id: string; readonly label: string }[];
  /** Called after the worker took new files or a new type: frames on screen decode again. */
  readonly onChanged?: () => void;
  /** How far the worker is in reading the listed rows again after the newest change. */
  readonly reread?: RereadState | null;
}

/**
 * "Schemas": Protobuf `.proto` files loaded by file picker or paste, kept in the storage passed
 * in, listed with remove; per connection the message type its binary frames are read as, or
 * auto (the type that fits best), or raw (no schema). The worker does the decoding.
 */
export function SchemasPanel(props: SchemasPanelProps): ReactElement {
  const { client, storage, connections, onChanged, reread } = props;
  const [files, setFiles] = useState<ProtoSource[]>(() => storage.load());
  const [state, setState] = useState<SchemaState | null>(null);
  const [pasteName, setPasteName] = useState('');
  const [pasteText, setPasteText] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  /** Files the worker left out (a syntax error, a missing import), by name: the others are in use. */
  const skipped = new Map((state?.skipped ?? []).map((s) => [s.name, s.error]));

  // The stored files go to the worker once at start (and whenever the list changes).
  const loaded = useWorkerCall(() => client.call('setSchema', { files }), [client, files]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: onChanged is a notification, not an input
  useEffect(() => {
    if (loaded.status !== 'ready') return;
    setState(loaded.value);
    onChanged?.();
  }, [loaded]);
  const error = loaded.status === 'error' ? loaded.error : state?.error;

  const update = (next: ProtoSource[]) => {
    storage.save(next);
    setFiles(next);
  };
  const add = (added: readonly ProtoSource[]) => {
    const names = new Set(added.map((f) => f.name));
    update([...files.filter((f) => !names.has(f.name)), ...added]);
  };
  const choose = async (connectionId: string, choice: SchemaTypeChoice) => {
    setState(await client.call('setSchemaType', { connectionId, choice }));
    onChanged?.();
  };

  return (
    <ToolbarDialog
      className="ws-schemas"
      label={`Schemas${files.length ? ` (${files.length}${skipped.size ? `, ${skipped.size} not loaded` : ''})` : ''}`}
      buttonTitle="Protobuf schemas (.proto files) to read binary frames with"
      buttonTestId="schemas-button"
      heading="Protobuf schemas"
      dialogClassName="ws-schemas-dialog"
      dialogTestId="schemas-dialog"
    >
      <ul aria-label="Loaded .proto files">
        {files.map((f) => (
          <li key={f.name}>
            <code>{f.name}</code>{' '}
            {skipped.has(f.name) && (
              <span className="ws-schema-skipped" title={skipped.get(f.name)}>
                not loaded{' '}
              </span>
            )}
            <button
              type="button"
              aria-label={`Remove ${f.name}`}
              onClick={() => update(files.filter((g) => g.name !== f.name))}
            >
              remove
            </button>
          </li>
        ))}
        {!files.length && (
          <li className="ws-muted-text">No .proto files loaded: Protobuf frames show their raw wire format.</li>
        )}
      </ul>
      {reread && reread.total > 0 && (
        <p role="status" className="ws-muted-text" data-testid="schema-reread">
          {reread.done
            ? `Listed binary frames read again: ${reread.total.toLocaleString('en-US')}.`
            : `Reading the listed frames again: ${reread.searched.toLocaleString('en-US')} of ${reread.total.toLocaleString('en-US')}…`}
        </p>
      )}
      {error && (
        <div role="alert" className="ws-banner-error" data-testid="schema-error">
          {error}
        </div>
      )}
      <input
        ref={fileRef}
        type="file"
        accept=".proto"
        multiple
        hidden
        data-testid="schema-file-input"
        onChange={(e) => {
          const picked = Array.from(e.target.files ?? []);
          e.target.value = '';
          void Promise.all(picked.map(async (file) => ({ name: file.name, source: await readText(file) }))).then(add);
        }}
      />
      <button type="button" onClick={() => fileRef.current?.click()}>
        Load .proto files…
      </button>
      <fieldset className="ws-schemas-paste">
        <legend>Paste a .proto</legend>
        <input
          aria-label="File name"
          placeholder="name.proto (as imports name it)"
          value={pasteName}
          onChange={(e) => setPasteName(e.target.value)}
        />
        <textarea aria-label="Proto source" rows={6} value={pasteText} onChange={(e) => setPasteText(e.target.value)} />
        <button
          type="button"
          disabled={!pasteText.trim()}
          onClick={() => {
            add([{ name: pasteName.trim() || `pasted-${files.length + 1}.proto`, source: pasteText }]);
            setPasteName('');
            setPasteText('');
          }}
        >
          Add
        </button>
      </fieldset>
      {state && state.types.length > 0 && (
        <fieldset className="ws-schemas-types">
          <legend>Message type per connection</legend>
          {connections.length === 0 && <p className="ws-muted-text">No connections yet.</p>}
          {connections.map((c) => (
            <label key={c.id}>
              {c.label}{' '}
              <select
                aria-label={`Message type for ${c.label}`}
                value={state.choices[c.id] ?? 'auto'}
                onChange={(e) => void choose(c.id, e.target.value)}
              >
                <option value="auto">auto (rank by fit)</option>
                <option value="raw">raw (no schema)</option>
                {state.types.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </fieldset>
      )}
    </ToolbarDialog>
  );
}

/** A picked file's text (FileReader: Blob.text is missing in some hosts). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}
