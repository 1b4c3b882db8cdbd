// @vitest-environment jsdom
/**
 * The legend read "Protobuf (inferred): 591,366 B" beside "As captured:
 * 1,361,041 B" for 67 of 157 messages, its line far below the others under "lower is
 * better". A codec that left messages out says so in the legend, its line is marked (faded,
 * a hollow end) and the note under the chart says why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { SessionChart } from './SessionChart';
import type { SessionChartData } from '../../../../../codecs/compare/session/cumulative';

afterEach(cleanup);

const data: SessionChartData = {
  at: [50, 100, 157],
  series: [
    { codec: 'captured', label: 'As captured', bytes: [400_000, 900_000, 1_361_041] },
    { codec: 'protobuf', label: 'Protobuf (inferred)', bytes: [200_000, 400_000, 591_366], messages: 67, left: 90 },
  ],
  notCharted: [],
};

describe('SessionChart: a codec that left messages out', () => {
  it('says "N of M messages" in the legend and the line title, marks the line and explains it', () => {
    render(<SessionChart data={data} />);
    const legend = screen.getByRole('list', { name: 'Chart legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['As captured: 1,361,041 B', 'Protobuf (inferred): 591,366 B — 67 of 157 messages']);
    const chart = screen.getByTestId('session-chart');
    const partial = chart.querySelector('polyline[data-codec=protobuf]')!;
    expect(partial.querySelector('title')?.textContent).toBe('Protobuf (inferred): 591,366 B — 67 of 157 messages');
    expect(partial.parentElement?.getAttribute('stroke-opacity')).toBe('0.5');
    expect(partial.parentElement?.querySelector('circle')).not.toBeNull();
    expect(chart.querySelector('polyline[data-codec=captured]')!.parentElement?.querySelector('circle')).toBeNull();
    expect(screen.getByTestId('session-chart-partial').textContent).toBe(
      'Faded line with a hollow end — Protobuf (inferred), 67 of 157 messages: this codec left messages out, so its line sums only the messages it encoded; lower is better only among codecs that encoded every message.',
    );
    expect(chart.querySelector('svg[role=img]')?.getAttribute('aria-label')).toContain(
      'Protobuf (inferred) ends at 578 KiB, 67 of 157 messages only',
    );
  });

  it('no note when every codec encoded every message', () => {
    render(<SessionChart data={{ ...data, series: data.series.slice(0, 1) }} />);
    expect(screen.queryByTestId('session-chart-partial')).toBeNull();
  });
});
