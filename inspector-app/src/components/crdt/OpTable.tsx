import type { ReactElement } from 'react';
import type { CrdtOpLine } from '../../worker/api.js';
import { formatBytes } from '../compare/format.js';

/** A patch's operations, one line each: id, op, target node, what it carries, bytes. */
export function OpTable({
  ops,
  onSelectNode,
}: {
  ops: readonly CrdtOpLine[];
  onSelectNode?: (nodeId: number) => void;
}): ReactElement {
  return (
    <table className="ws-table" aria-label="Patch operations" data-testid="crdt-ops">
      <thead>
        <tr>
          <th scope="col" title="the operation's own id (session.time)">
            id
          </th>
          <th scope="col">op</th>
          <th scope="col" title="the node it changes">
            target
          </th>
          <th scope="col">carries</th>
          <th scope="col" className="ws-num">
            bytes
          </th>
        </tr>
      </thead>
      <tbody>
        {ops.map((o) => (
          <tr
            key={o.nodeId}
            tabIndex={0}
            data-testid="crdt-op-row"
            onClick={onSelectNode ? () => onSelectNode(o.nodeId) : undefined}
            onKeyDown={onSelectNode ? (e) => e.key === 'Enter' && onSelectNode(o.nodeId) : undefined}
            title={o.span > 1 ? `takes ids ${o.id} … (${o.span} ids)` : undefined}
          >
            <td className="ws-mono">{o.id}</td>
            <td className="ws-mono">{o.op}</td>
            <td className="ws-mono">{o.target}</td>
            <td className="ws-mono ws-cell-value">{o.detail}</td>
            <td className="ws-num">{formatBytes(o.bytes)} B</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
