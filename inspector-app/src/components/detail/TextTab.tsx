import { useEffect, useState, type ReactElement } from 'react';
import type { FormatChoice, TextResult } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { CodeView } from '../text/CodeView.js';

/** JSON and EDN of the selected node (the whole frame by default), in read-only Monaco. */
export function TextTab(props: { client: Pick<WorkerClient, 'call'>; frameId: number; format: FormatChoice; nodeId: number; theme: 'light' | 'dark' }): ReactElement {
  const { client, frameId, format, nodeId, theme } = props;
  const [mode, setMode] = useState<'json' | 'edn'>('json');
  const [result, setResult] = useState<TextResult | null>(null);

  useEffect(() => {
    let live = true;
    setResult(null);
    void client.call('text', { frameId, format, nodeId, mode }).then((r) => live && setResult(r));
    return () => {
      live = false;
    };
  }, [client, frameId, format, nodeId, mode]);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <div className="ws-toolbar" role="radiogroup" aria-label="Text notation">
        {(['json', 'edn'] as const).map((m) => (
          <button key={m} type="button" role="radio" aria-checked={mode === m} aria-pressed={mode === m} onClick={() => setMode(m)}>
            {m === 'json' ? 'JSON' : 'EDN (RFC 8949 §8)'}
          </button>
        ))}
      </div>
      {result ? <CodeView text={result.text} language={mode} theme={theme} truncated={result.truncated} testId="text-view" /> : <div className="ws-empty">rendering…</div>}
    </div>
  );
}
