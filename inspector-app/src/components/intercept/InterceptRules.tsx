import { useId, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import type { InterceptRuleAction, InterceptRuleSpec } from '../../protocol/messages.js';
import './intercept.css';

/** A rule as the editor keeps it: on or off, and one connection or any. */
export interface EditableRule extends Omit<InterceptRuleSpec, 'connectionIds'> {
  readonly enabled: boolean;
  /** '' any connection. */
  readonly connectionId: string;
}

/** The enabled rules, as the host takes them. */
export function activeRules(rules: readonly EditableRule[]): InterceptRuleSpec[] {
  return rules
    .filter((r) => r.enabled)
    .map(({ enabled: _e, connectionId, ...r }) => (connectionId ? { ...r, connectionIds: [connectionId] } : r));
}

let nextRuleId = 1;
const newRule = (): EditableRule => ({
  id: `rule-${nextRuleId++}`,
  enabled: true,
  direction: 'both',
  url: '',
  contains: '',
  action: 'pause',
  delayMs: 1000,
  connectionId: '',
});

/**
 * The Intercept button and its rules editor (hosts with `intercept`): a table of rules
 * (on, direction, URL pattern, contains, action, delay, connection), added and removed here;
 * every change goes to the host at once. Rules act only while this panel is open.
 */
export function InterceptRules(props: {
  rules: readonly EditableRule[];
  onChange: (rules: EditableRule[]) => void;
  connections: readonly { id: string; label: string }[];
  /** Frames held now, over every connection (shown on the button). */
  held: number;
}): ReactElement {
  const { rules, onChange, connections, held } = props;
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const active = rules.filter((r) => r.enabled).length;

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog) return;
    dialog.style.left = '0px';
    const overflow = dialog.getBoundingClientRect().right - (window.innerWidth - 8);
    if (overflow > 0) dialog.style.left = `${-overflow}px`;
    dialog.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const set = (i: number, patch: Partial<EditableRule>) =>
    onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <span className="ws-intercept">
      <button
        ref={buttonRef}
        type="button"
        data-testid="intercept-button"
        aria-expanded={open}
        aria-haspopup="dialog"
        className={active ? 'ws-intercept-on' : undefined}
        onClick={() => (open ? close() : setOpen(true))}
        title="Intercept: rules that pause, drop or delay the page's frames while this panel is open"
      >
        Intercept{active ? ` (${active} on${held ? `, ${held} held` : ''})` : ''}
      </button>
      {open && (
        <div
          ref={dialogRef}
          role="dialog"
          aria-labelledby={headingId}
          tabIndex={-1}
          className="ws-intercept-dialog"
          data-testid="intercept-dialog"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.stopPropagation();
            close();
          }}
        >
          <div className="ws-intercept-head">
            <h2 id={headingId}>Intercept rules</h2>
            <button type="button" aria-label="Close" title="Close (Escape)" onClick={close}>
              ×
            </button>
          </div>
          <table className="ws-intercept-table">
            <thead>
              <tr>
                <th scope="col">On</th>
                <th scope="col">Direction</th>
                <th scope="col">URL pattern</th>
                <th scope="col">Contains</th>
                <th scope="col">Action</th>
                <th scope="col">Delay ms</th>
                <th scope="col">Connection</th>
                <th scope="col">
                  <span className="ws-visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r, i) => (
                <tr key={r.id} data-testid="intercept-rule">
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Rule ${i + 1} on`}
                      checked={r.enabled}
                      onChange={(e) => set(i, { enabled: e.target.checked })}
                    />
                  </td>
                  <td>
                    <select
                      aria-label={`Rule ${i + 1} direction`}
                      value={r.direction}
                      onChange={(e) => set(i, { direction: e.target.value as EditableRule['direction'] })}
                    >
                      <option value="both">both</option>
                      <option value="sent">sent</option>
                      <option value="received">received</option>
                    </select>
                  </td>
                  <td>
                    <input
                      type="text"
                      aria-label={`Rule ${i + 1} URL pattern`}
                      placeholder="any (* wildcards)"
                      value={r.url}
                      spellCheck={false}
                      onChange={(e) => set(i, { url: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      type="text"
                      aria-label={`Rule ${i + 1} contains`}
                      placeholder="any frame"
                      value={r.contains}
                      spellCheck={false}
                      onChange={(e) => set(i, { contains: e.target.value })}
                    />
                  </td>
                  <td>
                    <select
                      aria-label={`Rule ${i + 1} action`}
                      value={r.action}
                      onChange={(e) => set(i, { action: e.target.value as InterceptRuleAction })}
                    >
                      <option value="pause">Pause</option>
                      <option value="drop">Drop</option>
                      <option value="delay">Delay</option>
                    </select>
                  </td>
                  <td>
                    <input
                      type="number"
                      min={0}
                      max={600000}
                      step={100}
                      aria-label={`Rule ${i + 1} delay in ms`}
                      disabled={r.action !== 'delay'}
                      value={r.delayMs}
                      onChange={(e) =>
                        set(i, { delayMs: Math.max(0, Math.min(600_000, Math.round(Number(e.target.value) || 0))) })
                      }
                    />
                  </td>
                  <td>
                    <select
                      aria-label={`Rule ${i + 1} connection`}
                      value={r.connectionId}
                      onChange={(e) => set(i, { connectionId: e.target.value })}
                    >
                      <option value="">any</option>
                      {connections.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.label}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Remove rule ${i + 1}`}
                      onClick={() => onChange(rules.filter((_, j) => j !== i))}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rules.length === 0 && <p className="ws-muted-text">No rules: every frame goes through untouched.</p>}
          <button type="button" onClick={() => onChange([...rules, newRule()])}>
            Add rule
          </button>
          <p className="ws-muted-text ws-intercept-note">
            Contains: a text frame containing the text, or a binary frame whose bytes contain its UTF-8 bytes — how a
            CBOR, MessagePack or JSON string or key appears on the wire. Pause holds the frame (and the later frames of
            its socket in that direction, in order) until you Forward, Edit and forward or Drop it. Rules act only while
            this panel is open: closing it forwards every held frame in order.
          </p>
        </div>
      )}
    </span>
  );
}
