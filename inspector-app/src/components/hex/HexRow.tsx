import { memo, type ReactElement } from 'react';
import { ASCII, HEX, ROW_HEIGHT, formatOffset, toneOf } from './hexFormat';

export interface HexRowProps {
  readonly bytes: Uint8Array;
  readonly row: number;
  readonly top: number;
  readonly bytesPerRow: number;
  readonly digits: number;
  /** Ranges already clipped to this row ([0, 0) when they miss it), so unaffected rows memo-hit. */
  readonly keyLo: number;
  readonly keyHi: number;
  /** Selected value: header is [hdrLo, hdrHi), payload is [hdrHi, payHi). */
  readonly hdrLo: number;
  readonly hdrHi: number;
  readonly payHi: number;
  /** Offsets inside this row, or -1. `error` may equal bytes.length (error at end of input). */
  readonly error: number;
  readonly cursor: number;
  readonly idPrefix: string;
}

export function cellId(idPrefix: string, offset: number): string {
  return `${idPrefix}-b${offset}`;
}

/** One row: offset, `bytesPerRow` hex cells, ASCII column. Work is O(bytesPerRow). */
export const HexRow = memo(function HexRow(p: HexRowProps): ReactElement {
  const r0 = p.row * p.bytesPerRow;
  const r1 = Math.min(r0 + p.bytesPerRow, p.bytes.length);
  const hex: ReactElement[] = [];
  const ascii: ReactElement[] = [];
  for (let o = r0; o < r1; o++) {
    const b = p.bytes[o]!;
    const tone = toneOf(o, p.keyLo, p.keyHi, p.hdrLo, p.hdrHi, p.payHi);
    const isErr = o === p.error;
    const isCur = o === p.cursor;
    let cls = tone ? `hex-b hex-selected ${tone}` : 'hex-b';
    if (isErr) cls += ' hex-error';
    if (isCur) cls += ' hex-cursor';
    if (o - r0 === p.bytesPerRow / 2) cls += ' hex-mid';
    hex.push(
      // biome-ignore lint/a11y/useFocusableInteractive: the hex grid keeps focus itself and names the cursor cell with aria-activedescendant; its cells and rows are not tab stops
      <span
        key={o}
        id={isCur ? cellId(p.idPrefix, o) : undefined}
        role="gridcell"
        className={cls}
        data-offset={o}
        data-testid={isErr ? 'hex-byte-error' : tone ? 'hex-byte-selected' : undefined}
        aria-selected={tone ? true : undefined}
        title={isErr ? 'decode error here' : undefined}
      >
        {HEX[b]}
      </span>,
    );
    ascii.push(
      <span key={o} className={cls.replace('hex-b', 'hex-a')} data-offset={o}>
        {ASCII[b]}
      </span>,
    );
  }
  if (p.error === p.bytes.length && p.error >= r0 && p.error < r0 + p.bytesPerRow) {
    // The decoder ran out of input: mark the position just past the last byte.
    hex.push(
      // biome-ignore lint/a11y/useFocusableInteractive: the hex grid keeps focus itself and names the cursor cell with aria-activedescendant; its cells and rows are not tab stops
      <span
        key="end"
        role="gridcell"
        className="hex-b hex-error hex-end"
        data-offset={p.error}
        data-testid="hex-byte-error"
        title="decode error here (end of input)"
      >
        {'··'}
      </span>,
    );
  }
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the hex grid keeps focus itself and names the cursor cell with aria-activedescendant; its cells and rows are not tab stops
    <div
      role="row"
      aria-rowindex={p.row + 1}
      className="hex-row"
      style={{ height: ROW_HEIGHT, transform: `translateY(${p.top}px)` }}
    >
      {/* biome-ignore lint/a11y/useFocusableInteractive: the hex grid keeps focus itself and names the cursor cell with aria-activedescendant; its cells and rows are not tab stops */}
      <span role="rowheader" className="hex-off">
        {formatOffset(r0, p.digits).slice(2)}
      </span>
      <span className="hex-bytes" style={{ width: `${p.bytesPerRow * 3 + 1}ch` }}>
        {hex}
      </span>
      <span className="hex-ascii" aria-hidden="true">
        {ascii}
      </span>
    </div>
  );
});
