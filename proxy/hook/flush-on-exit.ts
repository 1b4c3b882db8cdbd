/**
 * Runs `flush` before the process ends: at 'exit' (a natural end, process.exit, an uncaught
 * exception) and on SIGINT / SIGTERM / SIGHUP. A signal the app listens for itself is the
 * app's to handle (the hook only flushes); one it does not is given back its default action
 * (the process ends by that signal, as it would have without the hook).
 */
export const FLUSHED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface ProcessLike {
  readonly pid: number;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  listenerCount(event: string): number;
  kill(pid: number, signal: string): unknown;
}

export function flushOnExit(proc: ProcessLike, flush: () => void): void {
  proc.on('exit', () => flush());
  for (const signal of FLUSHED_SIGNALS) {
    const onSignal = (): void => {
      flush();
      if (proc.listenerCount(signal) > 1) return; // the app handles it
      proc.off(signal, onSignal);
      proc.kill(proc.pid, signal);
    };
    proc.on(signal, onSignal);
  }
}
