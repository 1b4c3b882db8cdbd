import type { ReactElement } from 'react';
import type { CrdtSummary, FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import { formatBytes, percent } from '../compare/format.js';
import { OpTable } from './OpTable.js';
import '../compare/detail.css';

/** The document / patch text shown is cut here (the full text stays in the worker). */
export const MAX_VIEW_CHARS = 200 * 1024;

export interface CrdtTabProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  /** Selects a node in the Tree tab (the CRDT node tree lives there). */
  readonly onSelectNode?: (nodeId: number) => void;
  /** The tree's root node id, selected by "Show in Tree" (default 0). */
  readonly rootNodeId?: number;
}

function viewText(json: string): { text: string; cut: boolean } {
  return json.length > MAX_VIEW_CHARS ? { text: json.slice(0, MAX_VIEW_CHARS), cut: true } : { text: json, cut: false };
}

function ByteSplit({ metadata, content }: { metadata: number; content: number }): ReactElement {
  const total = metadata + content;
  const metaPct = percent(metadata, total);
  const contentPct = percent(content, total);
  return (
    <div data-testid="crdt-bytes">
      <p className="ws-section-title">Bytes</p>
      <p style={{ margin: '0 0 3px' }}>
        <span className="ws-swatch ws-stack-meta" aria-hidden="true" />
        metadata{' '}
        <span className="ws-num" data-testid="crdt-bytes-metadata">
          {formatBytes(metadata)} B
        </span>{' '}
        ({metaPct}) · <span className="ws-swatch ws-stack-content" aria-hidden="true" />
        content{' '}
        <span className="ws-num" data-testid="crdt-bytes-content">
          {formatBytes(content)} B
        </span>{' '}
        ({contentPct}) · total {formatBytes(total)} B
      </p>
      <div
        className="ws-stack"
        role="img"
        aria-label={`metadata ${metaPct}, content ${contentPct} of ${formatBytes(total)} bytes`}
      >
        <div className="ws-stack-meta" style={{ width: total > 0 ? `${(metadata / total) * 100}%` : '0%' }} />
        <div className="ws-stack-content" style={{ width: total > 0 ? `${(content / total) * 100}%` : '0%' }} />
      </div>
    </div>
  );
}

function ClockTable({ clock, yjs = false }: { clock: CrdtSummary['clock']; yjs?: boolean }): ReactElement {
  if (clock.length === 0) return <p className="ws-note">No clock table in this frame.</p>;
  const server = !yjs && clock.length === 1 && clock[0]!.sid === 'server';
  return (
    <>
      <p className="ws-section-title">
        {yjs ? 'Clocks (per client: the next clock)' : server ? 'Clock (server clock)' : 'Clock table'}
      </p>
      <table className="ws-table" aria-label="Clock table" style={{ width: 'auto' }}>
        <thead>
          <tr>
            <th scope="col">{yjs ? 'client' : 'sid'}</th>
            <th scope="col" className="ws-num">
              {yjs ? 'clock' : 'time'}
            </th>
          </tr>
        </thead>
        <tbody>
          {clock.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a clock table is drawn once per frame; a session id may repeat
            <tr key={`${c.sid}:${i}`} data-testid="crdt-clock-row">
              <td className="ws-mono">{c.sid}</td>
              <td className="ws-num ws-mono">{c.time}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!yjs && !server && clock.length > 1 ? (
        <p className="ws-note">The first row is the document's local clock; the others are peers it has seen.</p>
      ) : null}
    </>
  );
}

/** CRDT frames (json-joy model or patch, Yjs message): byte split, clocks, and the view / operations. */
export function CrdtTab({ client, frameId, format, onSelectNode, rootNodeId = 0 }: CrdtTabProps): ReactElement {
  const load = useWorkerCall(() => client.call('crdt', { frameId, format }), [client, frameId, format]);

  const treeNote = (
    <p className="ws-note">
      {load.status === 'ready' && load.value?.kind === 'yjs' ? (
        <>
          The message's tree (structs, origins, parents, delete set) is in the Tree tab: each struct there shows its{' '}
          <span className="ws-mono">client.clock</span> id and length.{' '}
        </>
      ) : (
        <>
          The CRDT node tree (ids, chunks, tombstones) is in the Tree tab: each node there shows its{' '}
          <span className="ws-mono">sid.time</span> id and span.{' '}
        </>
      )}
      {onSelectNode ? (
        <button
          type="button"
          className="ws-button"
          onClick={() => onSelectNode(rootNodeId)}
          aria-label="Show the CRDT node tree in the Tree tab"
        >
          Show the CRDT node tree in the Tree tab
        </button>
      ) : null}
    </p>
  );

  let body: ReactElement;
  if (load.status !== 'ready' && load.status !== 'error') {
    body = (
      <p className="ws-note" role="status">
        Reading the CRDT frame…
      </p>
    );
  } else if (load.status === 'error') {
    body = (
      <p className="ws-error" role="alert">
        {load.error}
      </p>
    );
  } else if (load.value === null) {
    body = (
      <p className="ws-note">
        This frame is not a json-joy CRDT model or patch nor a Yjs message (pick "crdt-model", "crdt-patch" or "yjs" as
        the format to force it).
      </p>
    );
  } else {
    const s = load.value;
    const view = viewText(s.viewJson);
    const viewBlock = (
      <>
        <pre
          className="ws-pre"
          role="region"
          data-testid="crdt-view"
          aria-label={
            s.kind === 'model'
              ? 'Document view as JSON'
              : s.kind === 'yjs'
                ? 'Message as JSON'
                : 'Patch operations as JSON'
          }
        >
          {view.text}
        </pre>
        {view.cut ? (
          <p className="ws-note" data-testid="crdt-view-cut">
            Showing the first {formatBytes(MAX_VIEW_CHARS)} of {formatBytes(s.viewJson.length)} characters (the rest is
            not shown here).
          </p>
        ) : null}
      </>
    );
    body = (
      <>
        <div className="ws-toolbar">
          <span className="ws-kind" data-testid="crdt-kind">
            {s.kind === 'model'
              ? 'model (structural snapshot)'
              : s.kind === 'yjs'
                ? `Yjs ${s.title ?? 'message'}`
                : 'patch (operations)'}
          </span>
        </div>
        <ByteSplit metadata={s.metadataBytes} content={s.contentBytes} />
        {s.kind === 'model' ? <ClockTable clock={s.clock} /> : null}
        {s.kind === 'yjs' && s.clock.length > 0 ? <ClockTable clock={s.clock} yjs /> : null}
        {s.notes.length > 0 ? (
          <ul className="ws-warn" aria-label="Notes" style={{ margin: 0, paddingLeft: 16 }}>
            {s.notes.map((n, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: notes are drawn once per frame and may repeat
              <li key={i}>{n}</li>
            ))}
          </ul>
        ) : null}
        {s.ops ? (
          <>
            <p className="ws-section-title">
              {s.kind === 'yjs' ? `Structs and deleted ranges (${s.ops.length})` : `Patch operations (${s.ops.length})`}
            </p>
            <OpTable ops={s.ops} onSelectNode={onSelectNode} />
            <details>
              <summary className="ws-note">
                {s.kind === 'yjs' ? 'The message as JSON' : 'json-joy verbose JSON'}
              </summary>
              {viewBlock}
            </details>
          </>
        ) : (
          <>
            <p className="ws-section-title">
              {s.kind === 'model' ? 'Document view' : s.kind === 'yjs' ? 'Message' : 'Patch operations'}
            </p>
            {viewBlock}
          </>
        )}
      </>
    );
  }

  return (
    <section className="ws-detail" data-testid="crdt-tab" aria-label="CRDT summary">
      {body}
      {treeNote}
    </section>
  );
}
