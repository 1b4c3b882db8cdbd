import type { ReactElement } from 'react';
import type { InterceptRuleAction, InterceptRuleSpec } from '../../protocol/messages.js';
import { ToolbarDialog } from '../shell/ToolbarDialog.js';
import './intercept.css';

/** A rule as the editor keeps it: on or off, and one connection or any. */
export interface EditableRule extends Omit<InterceptRuleSpec, 'connectionIds'> {
  readonly enabled: boolean;
  /** '' any connection. */
  readonly connectionId: string;
  /** '' any format; else a format ('cbor', 'msgpack', …) or a framing protocol ('socket.io', …) the list shows. */
  readonly format: string;
}

/**
 * The enabled rules, as the host takes them. A rule for a format or protocol applies to the
 * connections where the list has shown a frame of it (`byFormat`; the page cannot decode), so
 * it is sent restricted to those connections (none yet: to no connection).
 */
export function activeRules(
  rules: readonly EditableRule[],
  byFormat: ReadonlyMap<string, readonly string[]> = new Map(),
): InterceptRuleSpec[] {
  return rules
    .filter((r) => r.enabled)
    .map(({ enabled: _e, connectionId, format, ...r }) => {
      let ids: readonly string[] | undefined = connectionId ? [connectionId] : undefined;
      if (format) {
        const seen = byFormat.get(format) ?? [];
        ids = ids ? ids.filter((id) => seen.includes(id)) : seen;
      }
      return ids ? { ...r, connectionIds: ids } : r;
    });
}

/** The connections that showed a frame of each format or framing protocol, from the listed rows. */
export function connectionsByFormat(
  rows: readonly {
    readonly connectionId: string;
    readonly format: string | null;
    readonly protocol?: { readonly name: string };
  }[],
): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  const add = (key: string | null | undefined, id: string) => {
    if (!key) return;
    let set = sets.get(key);
    if (!set) sets.set(key, (set = new Set()));
    set.add(id);
  };
  for (const r of rows) {
    add(r.format, r.connectionId);
    add(r.protocol?.name, r.connectionId);
  }
  return new Map([...sets].map(([k, v]) => [k, [...v].sort()]));
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
  format: '',
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
  /** Formats and framing protocols the list has shown (a rule can be restricted to one). */
  formats: readonly string[];
  /** Frames held now, over every connection (shown on the button). */
  held: number;
}): ReactElement {
  const { rules, onChange, connections, formats, held } = props;
  const active = rules.filter((r) => r.enabled).length;
  const set = (i: number, patch: Partial<EditableRule>) =>
    onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <ToolbarDialog
      className="ws-intercept"
      label={`Intercept${active ? ` (${active} on${held ? `, ${held} held` : ''})` : ''}`}
      buttonTitle="Intercept: rules that pause, drop or delay the page's frames while this panel is open"
      buttonTestId="intercept-button"
      buttonClassName={active ? 'ws-intercept-on' : undefined}
      heading="Intercept rules"
      dialogClassName="ws-schemas-dialog ws-intercept-dialog"
      dialogTestId="intercept-dialog"
    >
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
            <th scope="col">Format</th>
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
                <select
                  aria-label={`Rule ${i + 1} format`}
                  title="Only connections where the list has shown a frame of this format or protocol"
                  value={r.format}
                  onChange={(e) => set(i, { format: e.target.value })}
                >
                  <option value="">any</option>
                  {[...new Set([...formats, ...(r.format ? [r.format] : [])])].map((f) => (
                    <option key={f} value={f}>
                      {f}
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
        Contains: a text frame containing the text, or a binary frame whose bytes contain its UTF-8 bytes — how a CBOR,
        MessagePack or JSON string or key appears on the wire. Pause holds the frame (and the later frames of its socket
        in that direction, in order) until you Forward, Edit and forward or Drop it. Rules act only while this panel is
        open: closing it forwards every held frame in order.
      </p>
    </ToolbarDialog>
  );
}
