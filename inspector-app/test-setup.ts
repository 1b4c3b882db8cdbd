/**
 * Vitest setup for every suite. Component tests (jsdom) wait up to 5 s for the UI: the
 * full suite runs test files in parallel on 2 cores, and the in-process decode worker
 * shares the CPU with them; testing-library's 1 s default then fails healthy tests.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5000 });
}
export {};
