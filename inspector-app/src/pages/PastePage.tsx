import { useEffect, useMemo, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { useTheme } from '../components/shell/use-theme.js';
import './paste.css';
import { App } from '../App.js';
import { formatCount, plural } from '../components/shell/format.js';
import { copyText } from '../components/shell/copyText.js';
import { MemoryTransport } from '../protocol/transport.js';
import { bytesFromHash, hashFromBytes, parsePasted } from '../sources/paste-input.js';
import type { WorkerClient } from '../worker/client.js';
import { PasteEdit } from './PasteEdit.js';

interface PasteState {
  readonly bytes: Uint8Array | null;
  readonly problem: string;
  readonly source: string;
}

const EMPTY: PasteState = { bytes: null, problem: '', source: '' };

/** Where a frame shown as a text WebSocket frame came from: pasted text, a link to one, an edit written as JSON text. */
const TEXT_SOURCE_RAW = 'raw';
const TEXT_SOURCE_LINK = 'link, as a text frame';
const TEXT_SOURCES = new Set([TEXT_SOURCE_RAW, TEXT_SOURCE_LINK, 'an edit in JSON text']);

/** The example behind "Try an example": cbor.me-style hex with comments. */
const EXAMPLE = `a3                      # map(3)
   64 74 79 70 65       #   "type"
   64 63 68 61 74       #   "chat"
   62 69 64             #   "id"
   19 04 d2             #   1234
   64 75 73 65 72       #   "user"
   a2                   #   map(2)
      64 6e 61 6d 65    #     "name"
      63 61 6e 6e       #     "ann"
      64 72 6f 6c 65    #     "role"
      65 61 64 6d 69 6e #     "admin"`;

/** Hex of at most the first MB (the textarea stays usable; the frame itself is whole). */
const hexOf = (bytes: Uint8Array) =>
  Array.from(bytes.subarray(0, 1 << 20), (b) => b.toString(16).padStart(2, '0')).join(' ');

/** A file's bytes (FileReader where Blob.arrayBuffer is missing, as in jsdom). */
function readFileBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

/** `?theme=dark|light` forces a theme; otherwise the system's. */
function requestedTheme(win: Window): 'light' | 'dark' | 'auto' {
  const t = new URLSearchParams(win.location.search).get('theme');
  return t === 'dark' || t === 'light' ? t : 'auto';
}

/**
 * paste.html: hex (spaces, 0x, commas, `#` comments), base64, base64url, a dropped file, or
 * `#b64=` / `#hex=` in the URL; the frame is shown at once with the full detail view. The
 * input is written back to the hash so the link reproduces the view.
 */
export function PastePage(props: { worker: WorkerClient; win?: Window }): ReactElement {
  const win = props.win ?? window;
  const requested = requestedTheme(win);
  const theme = useTheme(requested, win);
  const fileRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [state, setState] = useState<PasteState>(EMPTY);
  const [generation, setGeneration] = useState(0);
  const [hashNote, setHashNote] = useState('');
  /** The page's URL with the frame in its hash ('' when the frame is too large for a link). */
  const [link, setLink] = useState('');
  const [copied, setCopied] = useState('');
  const [editing, setEditing] = useState(false);
  /** Counts inputs, so a paste's reading the worker settles after a newer input came is dropped. */
  const inputCount = useRef(0);

  const show = (bytes: Uint8Array, source: string) => {
    setState({ bytes, problem: '', source });
    setGeneration((g) => g + 1);
    const hash = hashFromBytes(bytes, undefined, { text: TEXT_SOURCES.has(source) });
    if (typeof hash === 'string') {
      win.history.replaceState(null, '', hash);
      setHashNote('');
      setLink(win.location.href);
    } else {
      win.history.replaceState(null, '', win.location.pathname + win.location.search);
      setLink('');
      setHashNote(
        `This frame is ${plural(bytes.length, 'byte')}, above the ${formatCount(hash.limit)}-byte limit for links: the URL does not carry it.`,
      );
    }
  };

  // A link with the frame in its hash opens decoded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the link is read once, at load
  useEffect(() => {
    const fromHash = bytesFromHash(win.location.hash);
    if (!fromHash) return;
    if (fromHash.ok) {
      // A text frame's link shows its text, so Decode reads it again as the same text frame.
      setText(fromHash.text ? new TextDecoder().decode(fromHash.bytes) : hexOf(fromHash.bytes));
      show(fromHash.bytes, fromHash.text ? TEXT_SOURCE_LINK : 'link');
    } else setState({ bytes: null, problem: `The link's frame could not be read: ${fromHash.error}`, source: 'link' });
  }, []);

  const decodeText = (value: string) => {
    const parsed = parsePasted(value);
    const count = ++inputCount.current;
    if (parsed.ok && parsed.encoding === 'raw') return show(parsed.bytes, TEXT_SOURCE_RAW);
    if (parsed.ok) {
      // Words are often hex or base64 too (`cafe`, `ping`): the worker keeps that reading only
      // when it decodes cleanly, as the CLI does (codecs/input-reading.ts).
      void props.worker.call('settleTextReading', { text: value.trim(), parsed }).then((settled) => {
        if (count === inputCount.current && settled.ok) show(settled.bytes, settled.encoding);
      });
      return;
    }
    // The old frame, its hash and its banners go: what is shown is what was typed.
    setState({ bytes: null, problem: `${parsed.error} at character ${parsed.offset}`, source: '' });
    setHashNote('');
    setLink('');
    setGeneration((g) => g + 1);
    win.history.replaceState(null, '', win.location.pathname + win.location.search);
  };

  /** A file (dropped or opened) replaces what the textarea held. */
  const showFile = async (file: File) => {
    const count = ++inputCount.current;
    const bytes = await readFileBytes(file);
    if (count !== inputCount.current) return;
    setText(hexOf(bytes));
    show(bytes, file.name);
  };

  const copyLink = async () => {
    setCopied((await copyText(link, win.navigator.clipboard)) ? 'copied' : 'copy refused');
    win.setTimeout(() => setCopied(''), 1500);
  };

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) await showFile(file);
  };

  // Each new input is a fresh single-frame session on the same worker.
  const transport = useMemo(() => new MemoryTransport(), [generation]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new transport is the signal that new bytes are to be shown
  useEffect(() => {
    if (!state.bytes) return;
    const bytes = state.bytes.slice();
    // Pasted JSON arrives as raw text: say so, as a text WebSocket frame would.
    const opcode = TEXT_SOURCES.has(state.source) ? 'text' : 'binary';
    void props.worker.call('clear', {}).then(() =>
      transport.emit({
        type: 'frames',
        frames: [{ connectionId: 'paste', direction: 'received', time: Date.now(), opcode, data: bytes }],
      }),
    );
  }, [transport]);

  return (
    <div
      className="ws-paste-page"
      role="main"
      data-theme={theme}
      data-testid="paste-page"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => void onDrop(e)}
    >
      <div className="ws-app" style={{ flex: 'none', height: 'auto' }}>
        <div className="ws-toolbar ws-paste-heading">
          <h1>wirescope · paste and decode</h1>
          <span className="ws-muted" data-testid="paste-formats">
            CBOR, MessagePack, Protobuf, JSON text or json-joy bytes as hex, base64 or a file; the link below carries
            the frame.
          </span>
          <span className="ws-spacer" />
          <button
            type="button"
            onClick={() => {
              setText(EXAMPLE);
              decodeText(EXAMPLE);
            }}
          >
            Try an example
          </button>
        </div>
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
            className="ws-paste-input"
          />
          <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            <button type="button" data-testid="decode-button" onClick={() => decodeText(text)}>
              Decode
            </button>
            <input
              ref={fileRef}
              type="file"
              hidden
              data-testid="paste-file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void showFile(file);
              }}
            />
            <button type="button" onClick={() => fileRef.current?.click()}>
              Open file…
            </button>
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
            {plural(state.bytes.length, 'byte')} from {state.source}
            <button
              type="button"
              aria-expanded={editing}
              data-testid="paste-edit-toggle"
              title="Edit the frame in its own encoding into new bytes and a new link"
              onClick={() => setEditing(!editing)}
            >
              Edit
            </button>
            {link && (
              <>
                <span className="ws-spacer" />
                <label className="ws-paste-link">
                  link{' '}
                  <input
                    type="text"
                    readOnly
                    value={link}
                    data-testid="paste-link"
                    aria-label="Link to this frame"
                    onFocus={(e) => e.target.select()}
                  />
                </label>
                <button
                  type="button"
                  data-testid="paste-link-copy"
                  title="Copy the link: it opens this frame decoded"
                  onClick={() => void copyLink()}
                >
                  {copied || 'Copy link'}
                </button>
              </>
            )}
          </div>
        )}
      </div>
      {state.bytes && editing && (
        <div className="ws-app" style={{ flex: 'none', height: 'auto' }}>
          <PasteEdit
            key={generation}
            worker={props.worker}
            bytes={state.bytes}
            isText={TEXT_SOURCES.has(state.source)}
            onClose={() => setEditing(false)}
            onApply={(bytes, syntax) => {
              inputCount.current++;
              setEditing(false);
              setText(hexOf(bytes));
              show(bytes, syntax === 'json' ? 'an edit in JSON text' : 'an edit');
            }}
          />
        </div>
      )}
      <div style={{ flex: 1, minHeight: 0 }}>
        {state.bytes ? (
          <App
            key={generation}
            transport={transport}
            worker={props.worker}
            capabilities={{ connect: false, sendFrames: false, files: false, theme: requested, hostName: 'paste' }}
            singleFrame
            autoSelectFirst
          />
        ) : (
          <div className="ws-app">
            <div className="ws-empty">Paste or drop a frame above, or try the example.</div>
          </div>
        )}
      </div>
    </div>
  );
}
