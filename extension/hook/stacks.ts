/**
 * Errors that pass through the hook's wrappers (an InvalidStateError from `send`, a
 * SyntaxError from `new WebSocket(badUrl)`) would carry a stack frame naming the hook's
 * script (`chrome-extension://<id>/hook.js`), which tells any page the extension is there.
 * The scrubber removes the frames of the hook's own script from such an error's `stack`
 * before it reaches the page; the page's frames stay. The hook's script is found once, at
 * install, from a stack of its own: frames of files in the same folder (the one bundle in
 * a build; the hook's modules in tests) are the hook's.
 */
import { defineProperty, getOwnPropertyDescriptor } from './natives.js';

const FRAME_URL = /(?:\(|@|at )((?:[a-z][\w+.-]*:\/\/[^\s()]*|\/[^\s()]*?)):\d+(?::\d+)?\)?\s*$/;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A function that strips the hook's frames from an error's stack and returns the error. */
export function stackScrubber(): (e: unknown) => unknown {
  let own: RegExp | null = null;
  try {
    const lines = String(new Error().stack).split('\n');
    for (const l of lines) {
      const m = FRAME_URL.exec(l);
      if (!m) continue;
      const url = m[1]!;
      const folder = url.slice(0, url.lastIndexOf('/') + 1);
      if (folder) own = new RegExp(`${escapeRe(folder)}[^/\\s:()]+:\\d+`);
      break;
    }
  } catch {
    own = null;
  }
  const hook = own;
  if (hook === null) return (e) => e;
  return (e: unknown): unknown => {
    if ((typeof e !== 'object' && typeof e !== 'function') || e === null) return e;
    try {
      const stack = (e as { stack?: unknown }).stack;
      if (typeof stack !== 'string' || !hook.test(stack)) return e;
      const lines = stack.split('\n');
      let kept = '';
      for (let i = 0; i < lines.length; i++) if (!hook.test(lines[i]!)) kept += (kept ? '\n' : '') + lines[i]!;
      const d = getOwnPropertyDescriptor(e as object, 'stack');
      defineProperty(e as object, 'stack', {
        value: kept,
        writable: true,
        configurable: true,
        enumerable: d ? !!d.enumerable : false,
      });
    } catch {
      /* leave it as it is */
    }
    return e;
  };
}
