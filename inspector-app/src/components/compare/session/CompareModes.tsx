import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import type { WorkerClient } from '../../../worker/client.js';
import { SessionCompare, type SessionSource } from './SessionCompare.js';

/**
 * The Compare tab's switch between "this frame" (the per-value comparison, `children`) and
 * "session" (SessionCompare). The choice lives in the SessionRun, so it stays while the
 * user steps through frames. Without a session source only the frame view shows.
 */
export function CompareModes({
  client,
  session,
  currentConnectionId,
  children,
}: {
  client: Pick<WorkerClient, 'compareSession'>;
  session?: SessionSource;
  currentConnectionId?: string;
  children: ReactNode;
}): ReactElement {
  const noop = () => () => {};
  const mode = useSyncExternalStore(session ? session.run.subscribe : noop, () =>
    session ? session.run.mode() : 'frame',
  );
  if (!session) return <>{children}</>;
  return (
    <div className="ws-compare-modes">
      <div className="ws-segmented" role="radiogroup" aria-label="Compare">
        {(['frame', 'session'] as const).map((m) => (
          <label key={m} className={mode === m ? 'ws-pressed' : undefined}>
            <input
              type="radio"
              name="ws-compare-mode"
              value={m}
              checked={mode === m}
              onChange={() => session.run.setMode(m)}
              data-testid={`compare-mode-${m}`}
            />
            {m === 'frame' ? 'This frame' : 'Session'}
          </label>
        ))}
      </div>
      {mode === 'frame' ? (
        children
      ) : (
        <SessionCompare client={client} source={session} currentConnectionId={currentConnectionId} />
      )}
    </div>
  );
}
