import { useEffect, useMemo, useState, type DragEvent, type ReactElement } from 'react';
import { App } from '../App.js';
import { MemoryTransport } from '../protocol/transport.js';
import { bytesFromHash, hashFromBytes, parsePasted } from '../sources/paste-input.js';
import type { WorkerClient } from '../worker/client.js';

interface PasteState {
  readonly bytes: Uint8Array | null;
  readonly problem: string;
  readonly source: string;
}

const EMPTY: PasteState = { bytes: null, problem: '', source: '' };

/**
 * paste.html: hex (spaces, 0x, commas, `#` comments), base64, base64url, a dropped file, or
 * `#b64=` / `#hex=` in the URL; the frame is shown at once with the full detail view. The
 * input is written back to the hash so the link reproduces the view.
 */
export function PastePage(props: { worker: WorkerClient; win?: Window }): ReactElement {
  const win = props.win ?? window;
  const [text, setText] = useState('');
  const [state, setState] = useState<PasteState>(EMPTY);
  const [generation, setGeneration] = useState(0);
  const [hashNote, setHashNote] = useState('');

  const show = (bytes: Uint8Array, source: string) => {
    setState({ bytes, problem: '', source });
    setGeneration((g) => g + 1);
    const hash = hashFromBytes(bytes);
    if (typeof hash === 'string') {
      win.history.replaceState(null, '', hash);
      setHashNote('');
    } else {
      win.history.replaceState(null, '', win.location.pathname + win.location.search);
      setHashNote(`This frame is ${bytes.length} bytes, above the ${hash.limit}-byte limit for links: the URL does not carry it.`);
    }
  };

  // A link with the frame in its hash opens decoded.
  useEffect(() => {
    const fromHash = bytesFromHash(win.location.hash);
    if (!fromHash) return;
    if (fromHash.ok) {
      setText(Array.from(fromHash.bytes.subarray(0, 1 << 20), (b) => b.toString(16).padStart(2, '0')).join(' '));
      show(fromHash.bytes, 'link');
    } else setState({ bytes: null, problem: `The link's frame could not be read: ${fromHash.error}`, source: 'link' });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const decodeText = (value: string) => {
    const parsed = parsePasted(value);
    if (parsed.ok) show(parsed.bytes, parsed.encoding);
    else setState({ bytes: null, problem: `${parsed.error} at character ${parsed.offset}`, source: '' });
  };

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) show(new Uint8Array(await file.arrayBuffer()), file.name);
  };

  // Each new input is a fresh single-frame session on the same worker.
  const transport = useMemo(() => new MemoryTransport(), [generation]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!state.bytes) return;
    const bytes = state.bytes.slice();
    // Pasted JSON arrives as raw text: say so, as a text WebSocket frame would.
    const opcode = state.source === 'raw' ? 'text' : 'binary';
    void props.worker.call('clear', {}).then(() => transport.emit({ type: 'frames', frames: [{ connectionId: 'paste', direction: 'received', time: Date.now(), opcode, data: bytes }] }));
  }, [transport]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }} onDragOver={(e) => e.preventDefault()} onDrop={(e) => void onDrop(e)}>
      <div className="ws-app" style={{ flex: 'none', height: 'auto' }}>
        <div className="ws-toolbar" style={{ alignItems: 'stretch' }}>
          <textarea
            aria-label="Frame as hex, base64 or base64url"
            data-testid="paste-input"
            placeholder={'Paste hex (a1 61 61 01, 0x.., # comments), base64 or base64url, or drop a file'}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onPaste={(e) => {
              const pasted = e.clipboardData.getData('text');
              if (pasted) {
                e.preventDefault();
                setText(pasted);
                decodeText(pasted);
              }
            }}
            rows={3}
            style={{ flex: 1, fontFamily: 'ui-monospace, monospace', fontSize: 11 }}
          />
          <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            <button type="button" data-testid="decode-button" onClick={() => decodeText(text)}>
              Decode
            </button>
            <label className="ws-button-like">
              <input type="file" hidden data-testid="paste-file" onChange={(e) => void e.target.files?.[0]?.arrayBuffer().then((b) => show(new Uint8Array(b), e.target.files![0].name))} />
              <span role="button">Open file…</span>
            </label>
          </div>
        </div>
        {state.problem && (
          <div className="ws-banner-error" role="alert" data-testid="paste-error">
            {state.problem}
          </div>
        )}
        {hashNote && (
          <div className="ws-toolbar" role="status" data-testid="hash-note">
            {hashNote}
          </div>
        )}
        {state.bytes && (
          <div className="ws-toolbar" role="status">
            {state.bytes.length} bytes from {state.source}
          </div>
        )}
      </div>
      <div style={{ flex: 1, minHeight: 0 }}>
        <App key={generation} transport={transport} worker={props.worker} capabilities={{ connect: false, sendFrames: false, files: false, theme: 'auto', hostName: 'paste' }} singleFrame autoSelectFirst />
      </div>
    </div>
  );
}
