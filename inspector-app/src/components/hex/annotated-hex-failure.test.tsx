// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AnnotatedHex } from './AnnotatedHex.js';

afterEach(cleanup);

/** A worker that answers every call with a failure. */
const failingClient = { call: () => Promise.reject(new Error('the worker stopped')) };

describe('the annotated hex when the worker fails', () => {
  it('says why instead of staying on "annotating…"', async () => {
    render(<AnnotatedHex client={failingClient} frameId={1} format="auto" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('the worker stopped');
    expect(screen.queryByText('annotating…')).toBeNull();
  });
});
