import { useRef, type ReactElement, type ReactNode } from 'react';

export const CAP_CHOICES_MB = [16, 64, 256, 1024] as const;

export interface ToolbarProps {
  readonly paused: boolean;
  readonly pausedBacklog: number;
  readonly capMb: number;
  readonly files: boolean;
  /** Frames held (shown or waiting behind Pause): with none there is nothing to export. */
  readonly frameCount: number;
  /** Connections known, and those of them that can still bring frames (opening or open). */
  readonly connectionCount: number;
  readonly liveConnectionCount: number;
  readonly onPause: (paused: boolean) => void;
  readonly onClear: () => void;
  readonly onCap: (mb: number) => void;
  readonly onImport: (file: File) => void;
  readonly onExport: (kind: 'har' | 'wirescope') => void;
  readonly keepOnNavigate?: boolean;
  readonly onKeepOnNavigate?: (keep: boolean) => void;
  /** Hosts with debugger capture (Chrome extension): whether it is on (or starting), and the toggle. */
  readonly debuggerCaptureOn?: boolean;
  readonly onDebuggerCapture?: (on: boolean) => void;
  /** More controls after the capture ones (the Protobuf schemas button). */
  readonly extra?: ReactNode;
}

/** Capture controls: pause/resume, clear, the memory cap, file import/export. */
export function Toolbar(props: ToolbarProps): ReactElement {
  const fileRef = useRef<HTMLInputElement>(null);
  const { paused, pausedBacklog, capMb, files, frameCount, connectionCount, liveConnectionCount } = props;
  // Paused stays clickable (to resume); otherwise Pause needs something that could send frames:
  // a connection opening or open, or frames from a host that names no connection.
  const canPause = paused || liveConnectionCount > 0 || (frameCount > 0 && connectionCount === 0);
  const canExport = frameCount > 0;
  return (
    <div className="ws-toolbar" role="toolbar" aria-label="Capture">
      <button
        type="button"
        aria-pressed={paused}
        data-testid="pause-button"
        disabled={!canPause}
        onClick={() => props.onPause(!paused)}
        title={
          canPause
            ? 'Pause the list (frames are still captured and appear on resume)'
            : frameCount > 0
              ? 'Nothing to pause: no connection is open to bring more frames (these were read from a file or their connection closed)'
              : 'Nothing to pause: no frames and no connection yet'
        }
      >
        {paused ? `Resume${pausedBacklog ? ` (${pausedBacklog} new)` : ''}` : 'Pause'}
      </button>
      <button type="button" data-testid="clear-button" onClick={props.onClear} title="Clear all frames">
        Clear
      </button>
      <label title="Oldest frames are evicted (and counted) above this much raw frame data">
        memory cap{' '}
        <select aria-label="Memory cap" value={capMb} onChange={(e) => props.onCap(Number(e.target.value))}>
          {CAP_CHOICES_MB.map((mb) => (
            <option key={mb} value={mb}>
              {mb >= 1024 ? `${mb / 1024} GiB` : `${mb} MiB`}
            </option>
          ))}
        </select>
      </label>
      {props.onKeepOnNavigate && (
        <label>
          <input
            type="checkbox"
            checked={props.keepOnNavigate ?? true}
            onChange={(e) => props.onKeepOnNavigate?.(e.target.checked)}
          />{' '}
          keep on navigation
        </label>
      )}
      {props.onDebuggerCapture && (
        <button
          type="button"
          aria-pressed={props.debuggerCaptureOn ?? false}
          data-testid="debugger-toggle"
          onClick={() => props.onDebuggerCapture?.(!props.debuggerCaptureOn)}
          title="Also capture the WebSockets of this tab's workers (dedicated, shared, service) through Chrome's debugger. Chrome shows a &quot;started debugging this browser&quot; bar while it is on."
        >
          Debugger capture
        </button>
      )}
      {props.extra}
      {files && (
        <>
          <span className="ws-spacer" />
          <input
            ref={fileRef}
            type="file"
            accept=".har,.wirescope,.json,.wscap,application/json"
            hidden
            data-testid="import-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) props.onImport(file);
              e.target.value = '';
            }}
          />
          <button
            type="button"
            onClick={() => fileRef.current?.click()}
            title="Import a HAR (Chrome's _webSocketMessages) or a wirescope capture"
          >
            Import…
          </button>
          <button
            type="button"
            data-testid="export-har"
            disabled={!canExport}
            onClick={() => props.onExport('har')}
            title={
              canExport
                ? 'Export as a HAR that Chrome DevTools can import'
                : 'Nothing to export: no frames captured yet'
            }
          >
            Export HAR
          </button>
          <button
            type="button"
            data-testid="export-capture"
            disabled={!canExport}
            onClick={() => props.onExport('wirescope')}
            title={
              canExport
                ? 'Export as a wirescope capture, capture.wirescope (raw bytes exact)'
                : 'Nothing to export: no frames captured yet'
            }
          >
            Export capture
          </button>
        </>
      )}
    </div>
  );
}
