// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { inProcessWorker } from '../../worker/in-process';
import { BytesTab } from './BytesTab';
import { formatShare } from './share';

afterEach(cleanup);

const users = {
  type: 'users.page',
  users: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `user ${i}`, avatarHash: 'a'.repeat(40) })),
};

function withFrame(data: Uint8Array) {
  const client = inProcessWorker();
  client.ingest([{ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data }]);
  return client;
}

describe('BytesTab', () => {
  it('shows the breakdown, keys vs values, heaviest keys and the schema estimate as numbers and bars', async () => {
    const data = new CborEncoder().encode(users);
    render(<BytesTab client={withFrame(data)} frameId={1} format="auto" />);
    const breakdown = await screen.findByTestId('bytes-breakdown');
    const parts = within(breakdown)
      .getAllByTestId('bytes-breakdown-row')
      .map((r) => r.getAttribute('data-part'));
    expect(parts).toEqual(['headers', 'keys', 'strings', 'scalars', 'other']);
    expect(within(breakdown).getByRole('img').getAttribute('aria-label')).toMatch(/^Where the bytes go: headers \d/);
    expect(screen.getByTestId('bytes-keys').textContent).toContain('map framing');
    expect(within(screen.getByTestId('bytes-top-keys')).getAllByRole('row')[1].textContent).toMatch(/^avatarHash30/);
    expect(screen.getByTestId('bytes-schema').textContent).toMatch(
      /Without keys on the wire: about [\d,]+ B instead of [\d,]+ B — saves/,
    );
  });

  it('lists the cost by field across array elements, sortable', async () => {
    render(<BytesTab client={withFrame(new CborEncoder().encode(users))} frameId={1} format="auto" />);
    await screen.findByTestId('bytes-fields');
    const patterns = () => screen.getAllByTestId('bytes-field-row').map((r) => r.getAttribute('data-pattern'));
    expect(patterns()[0]).toBe('$.users');
    const hash = screen
      .getAllByTestId('bytes-field-row')
      .find((r) => r.getAttribute('data-pattern') === '$.users[*].avatarHash')!;
    // count, total, average, key bytes, value bytes, share: visible without a hover.
    expect(hash.textContent).toMatch(/^\$\.users\[\*\]\.avatarHash30/);
    fireEvent.click(screen.getByTestId('bytes-sort-pattern'));
    expect(patterns()).toEqual([...patterns()].sort((a, b) => a!.localeCompare(b!)));
    fireEvent.click(screen.getByTestId('bytes-sort-count'));
    expect(screen.getAllByTestId('bytes-field-row')[0].textContent).toMatch(/\[\*\]/);
    fireEvent.click(screen.getByTestId('bytes-fields-containers'));
    expect(patterns()).not.toContain('$.users');
  });

  it('keeps the figures of a malformed frame and says where it broke', async () => {
    const bytes = new CborEncoder().encode(users);
    render(<BytesTab client={withFrame(bytes.subarray(0, bytes.length - 10))} frameId={1} format="cbor" />);
    expect((await screen.findByTestId('bytes-partial')).textContent).toMatch(/malformed at byte \d+/);
    expect(screen.getAllByTestId('bytes-field-row').length).toBeGreaterThan(3);
  });

  it('never writes 0.0 % for bytes that are there', () => {
    expect(formatShare(1, 1_000_000)).toBe('<0.01%');
    expect(formatShare(120, 1_457_513)).toBe('<0.01%');
    expect(formatShare(1200, 1_457_513)).toBe('0.08%');
    expect(formatShare(0, 10)).toBe('0%');
    expect(formatShare(5, 10)).toBe('50%');
  });
});
