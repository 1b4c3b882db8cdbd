import type { ReactElement } from 'react';
import type { WireVariant } from '../../../../../codecs/compare/session/session.js';
import { formatBytes } from '../format.js';
import { schemaShareText } from '../../../../../codecs/compare/session/schema-share.js';
import {
  compressedCell,
  extraColumns,
  WIRE_ORDER as WIRE_VARIANTS,
  WIRE_TITLES,
  wireWhy,
  type SessionRow,
} from '../../../../../codecs/compare/session/groups.js';

/** An empty cell that says why, to the eye (title) and to a screen reader (its name). */
function Dash({ why }: { why: string }): ReactElement {
  return (
    <span
      className="ws-session-dash"
      title={why}
      role="img"
      aria-label={`no figure: ${why}`}
      data-testid="session-dash"
    >
      —
    </span>
  );
}

const bytes = (n: number) => `${formatBytes(n)} B`;

/** One table of session rows (a codec per row); `caption` names the scope. */
export function SessionTable({
  rows,
  caption,
  testId,
  hideNegotiated,
}: {
  rows: readonly SessionRow[];
  caption: string;
  testId?: string;
  hideNegotiated?: boolean;
}): ReactElement {
  const variants: readonly WireVariant[] = hideNegotiated
    ? WIRE_VARIANTS.filter((v) => v !== 'negotiated')
    : WIRE_VARIANTS;
  // Columns other modules' rows bring (snappy, brotli, schema sizes): shown when some row has them.
  const extra = extraColumns(rows);
  const compressed = (r: SessionRow, value: SessionRow['brotli'], name: string) => {
    const c = compressedCell(value, name);
    return (
      <td key={name}>
        {r.messages > 0 && 'bytes' in c ? (
          bytes(c.bytes)
        ) : (
          <Dash why={'why' in c ? c.why : 'no messages in this codec'} />
        )}
      </td>
    );
  };
  // The wrapper scrolls sideways when the columns do not fit (a narrow window), not the page.
  return (
    <div className="ws-session-scroll">
      <table className="ws-compare-table ws-session-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">codec</th>
            <th scope="col">messages</th>
            <th scope="col" title="sum of the message sizes">
              size
            </th>
            <th scope="col" title="each message gzipped alone, summed">
              gzip each
            </th>
            <th scope="col" title="each message deflated alone, summed">
              deflate each
            </th>
            {extra.snappy ? (
              <th scope="col" title="each message Snappy-compressed alone, summed">
                snappy each
              </th>
            ) : null}
            {extra.brotli ? (
              <th scope="col" title="each message brotli-compressed alone, summed">
                brotli each
              </th>
            ) : null}
            {extra.schema ? (
              <th scope="col" title="a schema codec's schema, sent once, and its share per message it encoded">
                schema (sent once)
              </th>
            ) : null}
            <th
              scope="col"
              title="payloads + WebSocket frame headers (2/4/10 bytes, +4 mask client → server), no compression"
            >
              wire, plain
            </th>
            {variants.map((v) => (
              <th scope="col" key={v}>
                {WIRE_TITLES[v]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.codec}\u0000${r.connectionId}\u0000${r.direction}`} data-codec={r.codec}>
              <th scope="row">{r.label}</th>
              <td>
                {formatBytes(r.messages)}
                {r.left > 0 ? (
                  // The reason can be long (a schema mismatch): in the tooltip and the accessible name; the list under the totals has them all.
                  <span className="ws-muted ws-session-dash" title={r.leftReason ?? undefined}>
                    {' '}
                    (+{formatBytes(r.left)} left out)
                    {r.leftReason ? <span className="ws-visually-hidden">: {r.leftReason}</span> : null}
                  </span>
                ) : null}
              </td>
              {r.messages === 0 ? (
                [0, 1, 2].map((i) => (
                  <td key={i}>
                    <Dash why={r.leftReason ? `no message in this codec: ${r.leftReason}` : 'no data messages'} />
                  </td>
                ))
              ) : (
                <>
                  <td>{bytes(r.size)}</td>
                  <td>{bytes(r.gzip)}</td>
                  <td>{bytes(r.deflate)}</td>
                </>
              )}
              {extra.snappy ? compressed(r, r.snappy, 'snappy') : null}
              {extra.brotli ? compressed(r, r.brotli, 'brotli') : null}
              {extra.schema ? (
                <td>
                  {r.schema ? (
                    <span title={r.schema.text.length > 2000 ? `${r.schema.text.slice(0, 2000)}…` : r.schema.text}>
                      {schemaShareText(r.schema, bytes(r.schema.bytes), 'B')}
                    </span>
                  ) : (
                    <Dash why="no schema: the codec describes itself" />
                  )}
                </td>
              ) : null}
              <td>
                {r.messages === 0 ? (
                  <Dash why={r.leftReason ? `no message in this codec: ${r.leftReason}` : 'no data messages'} />
                ) : (
                  bytes(r.plainWire.total)
                )}
              </td>
              {variants.map((v) => {
                const w = r.wire[v];
                const why = wireWhy(w, v);
                // A codec with no messages has no wire size: the reason its messages were left out.
                if (r.messages === 0)
                  return (
                    <td key={v}>
                      <Dash why={r.leftReason ? `no message in this codec: ${r.leftReason}` : 'no data messages'} />
                    </td>
                  );
                return (
                  <td key={v}>
                    {why !== null || w === null || 'unsupported' in w ? (
                      <Dash why={why ?? 'unknown'} />
                    ) : (
                      <span title={`${bytes(w.payload)} payload + ${bytes(w.headers)} frame headers`}>
                        {bytes(w.total)}
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
