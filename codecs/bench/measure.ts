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

/**
 * Wall time and CPU time (process user + system, `process.cpuUsage`) per call, in ns: the
 * median and the lowest over the rounds. On a shared machine other work only ever adds time
 * to a sample, so the lowest is the steadier estimate of what a call costs.
 */
export interface Timing {
  readonly wall: number;
  readonly cpu: number;
  readonly wallMin: number;
  readonly cpuMin: number;
}

/**
 * `measure` with CPU time beside wall time: on a shared machine another process's work
 * shows in wall time only. Each sample is about `sampleMs` of calls (CPU time is read in
 * microseconds); contenders rotate their order every round so none always runs first.
 */
export function measureTimings(
  bytes: Uint8Array,
  active: readonly Contender[],
  rounds: number,
  sampleMs = 5,
): Timing[] {
  const perCall = active.map((c) => {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 20) {
      c.run(bytes);
      n++;
    }
    return (performance.now() - t0) / n;
  });
  const reps = perCall.map((ms) => Math.max(1, Math.round(sampleMs / ms)));
  const wall: number[][] = active.map(() => []);
  const cpu: number[][] = active.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < active.length; k++) {
      const i = (k + r) % active.length;
      const c = active[i];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let j = 0; j < reps[i]; j++) c.run(bytes);
      const t1 = performance.now();
      const c1 = process.cpuUsage(c0);
      wall[i].push(((t1 - t0) * 1e6) / reps[i]);
      cpu[i].push(((c1.user + c1.system) * 1e3) / reps[i]);
    }
  }
  const median = (s: number[]) => s.sort((a, b) => a - b)[s.length >> 1];
  return active.map((_, i) => ({
    wall: median(wall[i]),
    cpu: median(cpu[i]),
    wallMin: Math.min(...wall[i]),
    cpuMin: Math.min(...cpu[i]),
  }));
}
