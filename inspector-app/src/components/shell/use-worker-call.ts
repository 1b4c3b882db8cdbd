import { useEffect, useState, type DependencyList } from 'react';

/** Where one call to the worker stands, as a component draws it. */
export type WorkerCall<T> =
  | { readonly status: 'idle' }
  | { readonly status: 'loading' }
  | { readonly status: 'error'; readonly error: string }
  | { readonly status: 'ready'; readonly value: T };

const IDLE: WorkerCall<never> = { status: 'idle' };
const LOADING: WorkerCall<never> = { status: 'loading' };

/** What the call answered, and for which inputs (an answer for older inputs is never shown). */
interface Answer<T> {
  readonly deps: DependencyList;
  readonly call: WorkerCall<T>;
}

const sameInputs = (a: DependencyList, b: DependencyList) =>
  a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/** A rejected call's text: the worker's Error message, or whatever was thrown as text. */
export const failureText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Asks the worker for something whenever `deps` change and says where the answer stands:
 * `loading` until it arrives (at once for new inputs, so an old answer never shows beside new
 * inputs), `ready` with the value, `error` with the message when the call is rejected, `idle`
 * when `start` is null (nothing to ask). An answer that arrives after the inputs changed or
 * the component unmounted is dropped. `delayMs` waits that long before asking (typing).
 */
export function useWorkerCall<T>(start: (() => Promise<T>) | null, deps: DependencyList, delayMs = 0): WorkerCall<T> {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  useEffect(() => {
    if (!start) return;
    let live = true;
    const ask = () =>
      start().then(
        (value) => live && setAnswer({ deps, call: { status: 'ready', value } }),
        (e: unknown) => live && setAnswer({ deps, call: { status: 'error', error: failureText(e) } }),
      );
    const timer = delayMs > 0 ? setTimeout(ask, delayMs) : null;
    if (timer === null) ask();
    return () => {
      live = false;
      if (timer !== null) clearTimeout(timer);
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps are the inputs of `start` (checked where it is called)
  }, deps);
  if (!start) return IDLE;
  return answer && sameInputs(answer.deps, deps) ? answer.call : LOADING;
}
