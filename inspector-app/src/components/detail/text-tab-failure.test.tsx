// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { TextTab } from './TextTab.js';

afterEach(cleanup);

/** A worker that answers every call with a failure. */
const failingClient = { call: () => Promise.reject(new Error('the worker stopped')) };

describe('the Text tab when the worker fails', () => {
  it('says why instead of staying on "rendering…"', async () => {
    render(
      <TextTab
        client={failingClient}
        frameId={1}
        format="auto"
        rootId={0}
        selection={null}
        reason=""
        mode="json"
        onMode={() => {}}
        scope="frame"
        onScope={() => {}}
        theme="light"
        clipboard={null}
      />,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('the worker stopped');
    expect(screen.queryByText('rendering…')).toBeNull();
  });
});
