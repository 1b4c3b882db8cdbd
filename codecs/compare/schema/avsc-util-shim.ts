/**
 * The four functions avsc takes from Node's `util` (inherits, format, deprecate, debuglog), for a
 * browser bundle of avro-codec.ts: alias 'util' to this file (esbuild `--alias:util=…`,
 * Vite `resolve.alias`). Node uses its own util.
 */
export function inherits(ctor: { prototype: object; super_?: unknown }, superCtor: { prototype: object }): void {
  ctor.super_ = superCtor;
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

/** util.format's %s / %d / %j / %% (what avsc's messages use); extra arguments are appended. */
export function format(pattern: unknown, ...args: unknown[]): string {
  if (typeof pattern !== 'string') return [pattern, ...args].map(String).join(' ');
  let i = 0;
  const out = pattern.replace(/%[sdjo%]/g, (m) => {
    if (m === '%%') return '%';
    if (i >= args.length) return m;
    const a = args[i++];
    if (m === '%j' || m === '%o') {
      try {
        return JSON.stringify(a);
      } catch {
        return '[Circular]';
      }
    }
    return m === '%d' ? String(Number(a)) : String(a);
  });
  return [out, ...args.slice(i).map(String)].join(' ');
}

export function deprecate<T>(fn: T): T {
  return fn;
}

/** A logger that logs nothing (avsc's debug output). */
export function debuglog(_section: string): (...args: unknown[]) => void {
  return () => {};
}

export default { inherits, format, deprecate, debuglog };
