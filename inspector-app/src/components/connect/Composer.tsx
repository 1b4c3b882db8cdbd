import { useState, type ReactElement } from 'react';
import type { Opcode } from '../../protocol/messages.js';
import type { EncodeAs } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import type { ConnectionState } from '../../state/capture-model.js';
import { CodeEditor } from '../text/CodeEditor.js';

const SEND_AS: { value: EncodeAs; label: string }[] = [
  { value: 'cbor', label: 'CBOR' },
  { value: 'msgpack', label: 'MessagePack' },
  { value: 'json', label: 'JSON text' },
  { value: 'hex', label: 'raw hex' },
];

/** Compose a frame as JSON (or hex) and send it encoded on an open connection. */
export function Composer(props: {
  client: Pick<WorkerClient, 'call'>;
  connections: ReadonlyMap<string, ConnectionState>;
  theme: 'light' | 'dark';
  onSend: (connectionId: string, opcode: Opcode, data: Uint8Array) => void;
}): ReactElement {
  const open = [...props.connections.values()].filter((c) => c.status === 'open');
  const [text, setText] = useState('{"type": "hello", "n": 1}');
  const [as, setAs] = useState<EncodeAs>('cbor');
  const [target, setTarget] = useState('');
  const [problem, setProblem] = useState('');
  const connectionId = open.some((c) => c.connectionId === target)
    ? target
    : (open[open.length - 1]?.connectionId ?? '');

  const send = async () => {
    const result = await props.client.call('encode', { json: text, as });
    if (!result.ok) return setProblem(`${result.error} (offset ${result.offset})`);
    setProblem('');
    props.onSend(connectionId, result.opcode, result.data);
  };

  return (
    <div role="group" aria-label="Compose a frame" style={{ borderBottom: '1px solid var(--ws-border)' }}>
      <CodeEditor
        value={text}
        onChange={setText}
        language={as === 'hex' ? 'plaintext' : 'json'}
        theme={props.theme}
        height={90}
        ariaLabel="Frame to send"
        testId="composer-input"
      />
      <div className="ws-toolbar">
        <label>
          send as{' '}
          <select
            aria-label="Send as"
            data-testid="send-as"
            value={as}
            onChange={(e) => setAs(e.target.value as EncodeAs)}
          >
            {SEND_AS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <select aria-label="Connection to send on" value={connectionId} onChange={(e) => setTarget(e.target.value)}>
          {open.map((c) => (
            <option key={c.connectionId} value={c.connectionId}>
              {c.url}
            </option>
          ))}
        </select>
        <button type="button" data-testid="send-button" disabled={!connectionId} onClick={() => void send()}>
          Send
        </button>
        {problem && (
          <span role="alert" className="ws-badge-error">
            {problem}
          </span>
        )}
      </div>
    </div>
  );
}
