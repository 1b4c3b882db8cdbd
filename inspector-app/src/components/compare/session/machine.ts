import type { MachineInfo } from '../../../../../codecs/compare/session/report.js';

/** The machine a report names, from the browser's navigator (passed in; tests give their own). */
export function navigatorMachine(
  nav: Pick<Navigator, 'userAgent' | 'platform' | 'hardwareConcurrency'> | undefined = typeof navigator === 'undefined'
    ? undefined
    : navigator,
): MachineInfo {
  if (!nav) return { runtime: 'unknown browser', os: 'unknown OS', cores: null };
  return {
    runtime: nav.userAgent || 'unknown browser',
    os: nav.platform || 'unknown OS',
    cores: Number.isFinite(nav.hardwareConcurrency) && nav.hardwareConcurrency > 0 ? nav.hardwareConcurrency : null,
  };
}
