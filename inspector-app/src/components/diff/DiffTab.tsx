import { useId, useMemo, useState, type ReactElement } from 'react';
import type { DiffRow } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useWorkerCall } from '../shell/use-worker-call.js';
import { formatBytes, formatDelta } from '../compare/format.js';
import '../compare/detail.css';
import './diff.css';

export interface DiffTabProps {
  readonly client: Pick<WorkerClient, 'call'>;
  /** The selected frame (the "before" side). */
  readonly frameA: number;
  /** The frame to compare it with (the "after" side), or null until one is picked. */
  readonly frameB: number | null;
  /** Recent frames to pick from (frameA itself is left out of the list). */
  readonly frameOptions: readonly { readonly frameId: number; readonly label: string }[];
  readonly onPickB: (frameId: number) => void;
  /** The label of any frame by id (the picked one may be older than the options), or null when not held. */
  readonly frameLabel?: (frameId: number) => string | null;
}

interface Totals {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  readonly before: number;
  readonly after: number;
}

function totalsOf(rows: readonly DiffRow[]): Totals {
  const t = { added: 0, removed: 0, changed: 0, before: 0, after: 0 };
  for (const r of rows) {
    t[r.change]++;
    t.before += r.sizeBefore;
    t.after += r.sizeAfter;
  }
  return t;
}

/** `87 → 69 B (−18 B)`. */
function SizeChange({ before, after }: { before: number; after: number }): ReactElement {
  return (
    <>
      {formatBytes(before)} → {formatBytes(after)} B (
      <span className={deltaClass(after - before)}>{formatDelta(after - before)}</span>)
    </>
  );
}

const deltaClass = (d: number) => (d > 0 ? 'ws-num ws-delta-up' : d < 0 ? 'ws-num ws-delta-down' : 'ws-num ws-muted');

function DiffTable({ rows }: { rows: readonly DiffRow[] }): ReactElement {
  return (
    <table className="ws-table ws-diff-table" data-testid="diff-table" aria-label="Frame differences">
      <colgroup>
        <col className="ws-diff-path" />
        <col className="ws-diff-change" />
        <col />
        <col />
        <col className="ws-diff-size" />
        <col className="ws-diff-delta" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">path</th>
          <th scope="col">change</th>
          <th scope="col">before</th>
          <th scope="col">after</th>
          <th
            scope="col"
            className="ws-num"
            title="the field's bytes before → after, its key included (as the tree's bytes column)"
          >
            size (B)
          </th>
          <th scope="col" className="ws-num">
            delta
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => {
          const delta = r.sizeAfter - r.sizeBefore;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a path may change twice (key and value); the list is redrawn whole
            <tr key={`${r.path}:${i}`} data-testid="diff-row" data-change={r.change}>
              <td className="ws-mono ws-cell-value" title={r.path}>
                {r.path}
              </td>
              <td className={`ws-change-${r.change}`}>{r.change}</td>
              <td className="ws-mono ws-cell-value" title={r.before}>
                {r.before}
              </td>
              <td className="ws-mono ws-cell-value" title={r.after}>
                {r.after}
              </td>
              <td className="ws-num" data-testid="diff-size">
                {formatBytes(r.sizeBefore)} → {formatBytes(r.sizeAfter)}
              </td>
              <td className={deltaClass(delta)} data-testid="diff-delta">
                {formatDelta(delta)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Structural diff of the selected frame against another one, with the byte delta of each change. */
export function DiffTab({ client, frameA, frameB, frameOptions, onPickB, frameLabel }: DiffTabProps): ReactElement {
  const selectId = useId();
  const [typed, setTyped] = useState(frameB === null ? '' : String(frameB));
  const valid = frameB !== null && frameB !== frameA;
  const diff = useWorkerCall(
    frameB !== null && frameB !== frameA ? () => client.call('diff', { frameA, frameB }) : null,
    [client, frameA, frameB],
  );

  // While the picker has focus (a native select's list is open) frames keep arriving: the
  // list it shows is the one it had when it took focus, so an option does not move under the pointer.
  const [frozenOptions, setFrozenOptions] = useState<DiffTabProps['frameOptions'] | null>(null);
  const options = (frozenOptions ?? frameOptions).filter((o) => o.frameId !== frameA);
  const rows = diff.status === 'ready' ? (diff.value?.rows ?? null) : null;
  const totals = useMemo(() => (rows ? totalsOf(rows) : null), [rows]);

  let body: ReactElement | null = null;
  if (!valid) {
    body = (
      <p className="ws-note">
        {frameB === frameA ? 'Pick a different frame to compare with.' : 'Pick a frame to compare this one with.'}
      </p>
    );
  } else if (diff.status === 'loading' || diff.status === 'idle') {
    body = (
      <p className="ws-note" role="status">
        Comparing frames…
      </p>
    );
  } else if (diff.status === 'error' || !rows) {
    body = (
      <p className="ws-error" role="alert">
        {diff.status === 'error'
          ? diff.error
          : `frame #${frameB} is not held (evicted by the memory cap, or no such frame)`}
      </p>
    );
  } else if (rows && totals && diff.status === 'ready' && diff.value) {
    const { frameBefore, frameAfter } = diff.value;
    // The rows count fields only: the frames' own sizes also hold container heads, framing and
    // fields of equal value, so the fields' sum is a second figure, named as such.
    const fieldsAreFrames = totals.before === frameBefore && totals.after === frameAfter;
    body = (
      <>
        <p data-testid="diff-totals" style={{ margin: 0 }}>
          {rows.length === 0 ? (
            'The frames hold the same value.'
          ) : (
            <>
              {rows.length} {rows.length === 1 ? 'difference' : 'differences'}:{' '}
              <span className="ws-change-added">{totals.added} added</span>,{' '}
              <span className="ws-change-removed">{totals.removed} removed</span>,{' '}
              <span className="ws-change-changed">{totals.changed} changed</span>
            </>
          )}
          {' · '}
          <span data-testid="diff-frame-sizes">
            frames <SizeChange before={frameBefore} after={frameAfter} />
          </span>
          {rows.length > 0 && !fieldsAreFrames && (
            <>
              {' · '}
              <span
                data-testid="diff-field-sizes"
                title="the fields listed, each with its key (as the tree's bytes column); the frames also hold container heads, framing and fields of equal value"
              >
                fields listed <SizeChange before={totals.before} after={totals.after} />
              </span>
            </>
          )}
        </p>
        {rows.length > 0 ? <DiffTable rows={rows} /> : null}
      </>
    );
  }

  return (
    <section className="ws-detail" data-testid="diff-tab" aria-label="Frame diff">
      <div className="ws-toolbar">
        <label htmlFor={selectId}>Compare frame #{frameA} with</label>
        <select
          id={selectId}
          className="ws-select"
          value={valid ? String(frameB) : ''}
          onChange={(e) => e.target.value !== '' && onPickB(Number(e.target.value))}
          onFocus={() => setFrozenOptions(frameOptions)}
          onBlur={() => setFrozenOptions(null)}
          aria-label="Frame to compare with"
        >
          <option value="">choose a frame…</option>
          {options.map((o) => (
            <option key={o.frameId} value={String(o.frameId)}>
              {o.label}
            </option>
          ))}
          {valid && !options.some((o) => o.frameId === frameB) ? (
            <option value={String(frameB)}>{frameLabel?.(frameB) ?? `#${frameB}`}</option>
          ) : null}
        </select>
        <label>
          or frame #{' '}
          <input
            type="number"
            min={1}
            aria-label="Frame number to compare with"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              const n = Number(typed);
              if (e.key === 'Enter' && Number.isInteger(n) && n > 0) onPickB(n);
            }}
            style={{ width: 80 }}
          />
        </label>
      </div>
      {body}
    </section>
  );
}
