// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { useWorkerCall } from './use-worker-call.js';

afterEach(cleanup);

/** A call whose answer the test gives when it wants to. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useWorkerCall', () => {
  it('is loading until the answer arrives, then ready with it', async () => {
    const answer = deferred<string>();
    const { result } = renderHook(() => useWorkerCall(() => answer.promise, [1]));
    expect(result.current).toEqual({ status: 'loading' });
    answer.resolve('tree');
    await waitFor(() => expect(result.current).toEqual({ status: 'ready', value: 'tree' }));
  });

  it('turns a rejected call into an error with its message instead of loading for good', async () => {
    const { result } = renderHook(() => useWorkerCall(() => Promise.reject(new Error('no such frame')), [1]));
    await waitFor(() => expect(result.current).toEqual({ status: 'error', error: 'no such frame' }));
  });

  it('shows loading at once for new inputs and drops the answer to the old ones', async () => {
    const calls = new Map([
      [1, deferred<string>()],
      [2, deferred<string>()],
    ]);
    const { result, rerender } = renderHook(({ id }) => useWorkerCall(() => calls.get(id)!.promise, [id]), {
      initialProps: { id: 1 },
    });
    calls.get(1)!.resolve('one');
    await waitFor(() => expect(result.current).toEqual({ status: 'ready', value: 'one' }));
    rerender({ id: 2 });
    expect(result.current).toEqual({ status: 'loading' });
    rerender({ id: 1 });
    rerender({ id: 2 });
    calls.get(2)!.resolve('two');
    await waitFor(() => expect(result.current).toEqual({ status: 'ready', value: 'two' }));
  });

  it('is idle when there is nothing to ask', () => {
    const { result } = renderHook(() => useWorkerCall(null, [1]));
    expect(result.current).toEqual({ status: 'idle' });
  });

  it('waits the delay before asking, and asks once for the last inputs when they change meanwhile', async () => {
    const asked: string[] = [];
    const { result, rerender } = renderHook(
      ({ text }) =>
        useWorkerCall(
          () => {
            asked.push(text);
            return Promise.resolve(text.length);
          },
          [text],
          20,
        ),
      { initialProps: { text: 'a' } },
    );
    rerender({ text: 'ab' });
    rerender({ text: 'abc' });
    expect(asked).toEqual([]);
    await waitFor(() => expect(result.current).toEqual({ status: 'ready', value: 3 }));
    expect(asked).toEqual(['abc']);
  });
});
