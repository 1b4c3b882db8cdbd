import { useEffect, useState, type ReactElement } from 'react';
import type { ByteMapRect, FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { FieldCostTable } from './FieldCostTable.js';
import { KeyOverheadView } from './KeyOverheadView.js';
import { StackedBar } from './StackedBar.js';
import { ByteMap, type ByteMapBy } from './ByteMap.js';
import { HeaviestFields } from './HeaviestFields.js';
import { exactBytes } from './share.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import '../compare/detail.css';
import './bytes.css';

export interface BytesTabProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  /** A treemap rectangle picked: select its node (a field: its first occurrence) in the tree and the hex. */
  readonly onPickNode?: (node: { readonly nodeId: number; readonly start: number }) => void;
}

/** The report waits at most this long for the treemap's first layout. */
const REPORT_AFTER_MS = 300;

/**
 * Where the frame's bytes go: the treemap (by node or by field) beside the heaviest fields,
 * then the breakdown, keys vs values, heaviest keys, the schema estimate, cost by field.
 */
export function BytesTab({ client, frameId, format, onPickNode }: BytesTabProps): ReactElement {
  const [by, setBy] = useState<ByteMapBy>('node');
  const key = `${frameId}:${format}`;

  // The treemap asks the worker first (it draws in a fraction of the report's time); the
  // report follows once the picture is laid out, or after a pause when it draws nothing.
  const [mapAsked, setMapAsked] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setMapAsked(key), REPORT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [key]);
  const reportDue = mapAsked === key;
  const load = useWorkerCall(reportDue ? () => client.call('bytesReport', { frameId, format }) : null, [
    client,
    frameId,
    format,
    reportDue,
  ]);

  const report = load.status === 'ready' ? load.value : null;
  let body: ReactElement | null;
  if (load.status === 'loading' || load.status === 'idle') {
    body = (
      <p className="ws-note" role="status">
        Measuring where the bytes go…
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
      <p className="ws-note">Nothing decoded in this frame: pick a decoder under "decode as" to read it as one.</p>
    );
  } else {
    const r = load.value;
    const b = r.breakdown;
    body = (
      <>
        <StackedBar
          label="Where the bytes go"
          testId="bytes-breakdown"
          total={r.frameBytes}
          parts={[
            {
              name: 'headers',
              bytes: b.headerBytes,
              tone: 'ws-tone-frame',
              about: 'container and tag heads, string length prefixes',
            },
            { name: 'keys', bytes: b.keyBytes, tone: 'ws-tone-key', about: 'map keys, whole' },
            {
              name: 'strings',
              bytes: b.stringPayloadBytes,
              tone: 'ws-tone-string',
              about: 'text and byte string payloads',
            },
            { name: 'scalars', bytes: b.scalarPayloadBytes, tone: 'ws-tone-scalar', about: 'numbers, booleans, null' },
            ...(b.unindexedBytes > 0
              ? [
                  {
                    name: 'unindexed',
                    bytes: b.unindexedBytes,
                    tone: 'ws-tone-other',
                    about: 'below the recorded levels',
                  },
                ]
              : []),
            {
              name: 'other',
              bytes: b.otherBytes,
              tone: 'ws-tone-other',
              about: 'break bytes, JSON punctuation and whitespace, bytes after an error',
            },
          ]}
        />
        {r.keys ? (
          <KeyOverheadView keys={r.keys} frameBytes={r.frameBytes} />
        ) : (
          <p className="ws-note">No maps in this frame: no keys to weigh.</p>
        )}
        <FieldCostTable report={r} />
      </>
    );
  }

  return (
    <section className="ws-detail ws-bytes" data-testid="bytes-tab" aria-label="Where the bytes go">
      <div className="ws-bytes-top">
        <div className="ws-bytes-map-col">
          <div className="ws-toolbar ws-bytes-map-bar">
            <p className="ws-section-title" style={{ margin: 0 }}>
              Where the bytes go{report ? ` — ${exactBytes(report.frameBytes)} of ${report.format}` : ''}
            </p>
            <fieldset className="ws-bytes-by">
              <legend className="ws-visually-hidden">Treemap of</legend>
              {(
                [
                  ['node', 'by node'],
                  ['field', 'by field across array elements'],
                ] as const
              ).map(([value, text]) => (
                <label key={value}>
                  <input
                    type="radio"
                    name={`bytes-map-by-${frameId}`}
                    checked={by === value}
                    onChange={() => setBy(value)}
                    data-testid={`bytes-map-by-${value}`}
                  />{' '}
                  {text}
                </label>
              ))}
            </fieldset>
          </div>
          {report?.error ? (
            <p className="ws-warn" role="status" data-testid="bytes-partial">
              The frame is malformed at byte {report.error.offset}: the figures cover what decoded before it; the rest
              counts as other bytes.
            </p>
          ) : null}
          {report && !report.whole ? (
            <p className="ws-note">A very large frame: recorded three levels deep; deeper bytes count as unindexed.</p>
          ) : null}
          <ByteMap
            client={client}
            frameId={frameId}
            format={format}
            by={by}
            onLaidOut={() => setMapAsked(key)}
            onPick={(rect: ByteMapRect) => onPickNode?.({ nodeId: rect.nodeId, start: rect.start })}
          />
        </div>
        {report ? (
          <HeaviestFields report={report} />
        ) : (
          <p className="ws-note ws-bytes-heaviest">Heaviest fields: measuring…</p>
        )}
      </div>
      {body}
    </section>
  );
}
