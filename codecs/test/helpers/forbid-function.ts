import { afterEach } from 'vitest';

/**
 * MV3's CSP forbids generating code: a test calls `forbid()` to replace the global
 * `Function` with one that records the code it was asked to compile and throws, as the
 * extension page would. The real `Function` comes back after each test. Returns the list
 * the calls are recorded in (a test expects it empty).
 */
export function forbidFunctionPerTest(): { forbid(): string[] } {
  const realFunction = globalThis.Function;
  afterEach(() => {
    globalThis.Function = realFunction;
  });
  return {
    forbid() {
      const calls: string[] = [];
      const refuse = (args: unknown[]): never => {
        calls.push(String(args.at(-1)).slice(0, 60));
        throw new EvalError('code generation forbidden');
      };
      globalThis.Function = new Proxy(realFunction, {
        apply: (_t, _this, args) => refuse(args),
        construct: (_t, args) => refuse(args),
      });
      return calls;
    },
  };
}
