// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { inProcessWorker } from '../../worker/in-process';
import type { ByteMapRect } from '../../worker/api';
import { ByteMap } from './ByteMap';

afterEach(cleanup);

function withFrame(data: Uint8Array) {
  const client = inProcessWorker();
  client.ingest([{ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data }]);
  return client;
}

const users = {
  users: Array.from({ length: 10 }, (_, i) => ({ id: i, avatarHash: 'ab'.repeat(20), email: `u${i}@x.io` })),
};

describe('the treemap drawn as SVG', () => {
  it('draws one group per rectangle, numbers in its title; a click and Enter pick its node', async () => {
    const picked: ByteMapRect[] = [];
    render(
      <ByteMap
        client={withFrame(new CborEncoder().encode(users))}
        frameId={1}
        format="auto"
        by="node"
        onPick={(r) => picked.push(r)}
        fallbackSize={{ width: 600, height: 400 }}
      />,
    );
    await waitFor(() => expect(screen.getAllByTestId('bytes-map-rect').length).toBeGreaterThan(10));
    const svg = screen.getByTestId('bytes-map-svg');
    expect(svg.getAttribute('width')).toBe('600');
    const rects = screen.getAllByTestId('bytes-map-rect');
    const hash = rects.find((g) => g.getAttribute('data-path') === '$.users[3].avatarHash')!;
    expect(hash.querySelector('title')!.textContent).toMatch(/^\$\.users\[3\]\.avatarHash: \d+ B — key \d+ B/);
    // The hex's tones: key, head and value parts.
    expect([...hash.querySelectorAll('rect')].map((r) => r.getAttribute('class'))).toEqual([
      'ws-map-tone-key',
      'ws-map-tone-header',
      'ws-map-tone-payload',
      'ws-map-edge',
    ]);
    fireEvent.click(hash);
    expect(picked.map((r) => r.path)).toEqual(['$.users[3].avatarHash']);

    // One tab stop (the rectangle clicked); the arrow keys move it, the status line reads it, Enter picks.
    expect(rects.filter((g) => g.getAttribute('tabindex') === '0')).toEqual([hash]);
    fireEvent.keyDown(hash, { key: 'ArrowRight' });
    const next = String(Number(hash.getAttribute('data-index')) + 1);
    const second = rects.find((g) => g.getAttribute('data-index') === next)!;
    await waitFor(() => expect(second.getAttribute('tabindex')).toBe('0'));
    expect(screen.getByTestId('bytes-map-status').textContent).toBe(second.querySelector('title')!.textContent);
    fireEvent.keyDown(second, { key: 'Enter' });
    expect(picked).toHaveLength(2);
  });
});
