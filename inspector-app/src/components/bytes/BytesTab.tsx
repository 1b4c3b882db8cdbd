import type { ReactElement } from 'react';
import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { FieldCostTable } from './FieldCostTable.js';
import { KeyOverheadView } from './KeyOverheadView.js';
import { StackedBar } from './StackedBar.js';
import { exactBytes } from './share.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import '../compare/detail.css';
import './bytes.css';

export interface BytesTabProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
}

/** Where the frame's bytes go: the breakdown, keys vs values, heaviest keys, the schema estimate, cost by field. */
export function BytesTab({ client, frameId, format }: BytesTabProps): ReactElement {
  const load = useWorkerCall(() => client.call('bytesReport', { frameId, format }), [client, frameId, format]);

  let body: ReactElement;
  if (load.status !== 'ready' && load.status !== 'error') {
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
        <p className="ws-section-title">
          Where the bytes go — {exactBytes(r.frameBytes)} of {r.format}
        </p>
        {r.error ? (
          <p className="ws-warn" role="status" data-testid="bytes-partial">
            The frame is malformed at byte {r.error.offset}: the figures cover what decoded before it; the rest counts
            as other bytes.
          </p>
        ) : null}
        {!r.whole ? (
          <p className="ws-note">A very large frame: recorded three levels deep; deeper bytes count as unindexed.</p>
        ) : null}
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
      {body}
    </section>
  );
}
