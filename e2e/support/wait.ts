/** Polling waits for e2e steps that have no event to wait on; the error names what was awaited. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds; throws after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`e2e: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Reads until `done(value)`, then returns that value; throws after `timeoutMs` with the last value read. */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T> | T,
  done: (v: T) => boolean,
  timeoutMs = 10_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`e2e: timed out waiting for ${what} (last: ${JSON.stringify(v)})`);
    await sleep(everyMs);
  }
}
