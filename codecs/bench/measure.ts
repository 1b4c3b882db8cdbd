/**
 * The measuring method every wirescope benchmark shares: contenders run side by side on the
 * same bytes in interleaved rounds (machine noise hits all of them alike), each sample is
 * about 5 ms of calls, and the result is the median time per call.
 */
export interface Contender {
  readonly name: string;
  readonly run: (bytes: Uint8Array) => unknown;
}

/** Median nanoseconds per call of each contender. The 20 ms calibration is also the warm-up. */
export function measure(bytes: Uint8Array, active: readonly Contender[], rounds: number): number[] {
  const perCall = active.map((c) => {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 20) {
      c.run(bytes);
      n++;
    }
    return (performance.now() - t0) / n;
  });
  const reps = perCall.map((ms) => Math.max(1, Math.round(5 / ms)));
  const samples: number[][] = active.map(() => []);
  for (let r = 0; r < rounds; r++) {
    active.forEach((c, i) => {
      const t0 = performance.now();
      for (let k = 0; k < reps[i]; k++) c.run(bytes);
      samples[i].push(((performance.now() - t0) * 1e6) / reps[i]);
    });
  }
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]);
}

/** `812 ns`, `3.4 µs`, `12.50 ms`. */
export function fmtTime(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}
