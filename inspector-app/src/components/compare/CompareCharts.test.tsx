// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { CompareRowView } from '../../worker/api';
import { CompareCharts } from './CompareCharts';

afterEach(cleanup);

/** A row whose encode and decode take `encodeUs` and `decodeUs` microseconds per operation. */
const timed = (codec: string, encodeUs: number, decodeUs: number): CompareRowView => ({
  codec,
  family: 'cbor',
  size: 100,
  gzipSize: 60,
  deflateSize: 58,
  encodeOpsPerSec: 1e6 / encodeUs,
  decodeOpsPerSec: 1e6 / decodeUs,
  lossless: 'yes',
  unsupported: null,
});

describe('CompareCharts time per operation', () => {
  // The CLI (codecs/compare/format.ts msText) and the README: µs below 1 ms, ms from 1 ms.
  // The chart printed 1–10 ms in µs ("6300 µs" beside "14.0 ms").
  it('prints µs below 1 ms and ms from 1 ms, as the CLI does', () => {
    render(
      <CompareCharts
        rows={[
          timed('cbor', 6300, 14_000),
          timed('json', 0.85, 412),
          timed('ion', 9950, 140_000),
          timed('bson', 1000, 999),
        ]}
      />,
    );
    const time = within(screen.getByTestId('compare-charts')).getByRole('figure', { name: /Time per operation/ });
    const values = within(time)
      .getAllByTestId('chart-value')
      .map((v) => v.textContent);
    expect(values).toEqual(['6.30 ms', '14.0 ms', '0.85 µs', '412 µs', '9.95 ms', '140 ms', '1.00 ms', '999 µs']);
    // Zero in the ticks' unit (not "0.00 µs" beside "70.0 ms, 140 ms"), as the size axis's "0 B".
    expect([...within(time).getByTestId('chart-axis').children].map((t) => t.textContent)).toEqual([
      '0 ms',
      '70.0 ms',
      '140 ms',
    ]);
    expect(screen.getByRole('img', { name: 'cbor encode: 6.30 ms per op (159 ops/s)' })).toBeTruthy();
  });

  it('an axis below 1 ms reads 0 µs at zero; the size axis 0 B', () => {
    render(<CompareCharts rows={[timed('cbor', 2, 412), timed('json', 0.85, 300)]} />);
    const charts = within(screen.getByTestId('compare-charts'));
    const ticks = (name: RegExp) =>
      [...within(charts.getByRole('figure', { name })).getByTestId('chart-axis').children].map((t) => t.textContent);
    expect(ticks(/Time per operation/)).toEqual(['0 µs', '206 µs', '412 µs']);
    expect(ticks(/Size per codec/)[0]).toBe('0 B');
  });
});
