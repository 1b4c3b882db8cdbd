import { type EditResult, editError } from './edit-error.js';
import {
  BYTE_ORDER_MARK,
  BYTE_ORDER_MARK_PROBLEM,
  leadingZero,
  leadingZeroProblem,
  unclosedStringProblem,
} from './text-problems.js';

/**
 * A JSON frame's edit is the text itself: checked against RFC 8259 (one value, nothing
 * but blanks around it) and sent as its UTF-8 bytes, unchanged — no reformatting, so an
 * unchanged text gives back the original frame. A bad text gives an error with line and
 * column and no bytes.
 */
export function jsonFromText(text: string): EditResult {
  const problem = jsonProblem(text);
  if (problem) return { ok: false, error: editError(text, problem.offset, problem.message) };
  return { ok: true, bytes: new TextEncoder().encode(text) };
}

/** Where and why `text` is not one JSON value, or null when it is. Iterative: any nesting depth. */
export function jsonProblem(text: string): { offset: number; message: string } | null {
  let i = 0;
  const n = text.length;
  const fail = (message: string, at = i) => ({ offset: at, message });
  const found = () => (i >= n ? 'end of input' : JSON.stringify(text[i]));
  const space = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  /** Open containers: '[' or '{'. */
  const stack: string[] = [];
  if (text.startsWith(BYTE_ORDER_MARK)) return fail(BYTE_ORDER_MARK_PROBLEM, 0);
  space();
  for (;;) {
    // A value.
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      space();
      if (c === '{' && text[i] === '}') i++;
      else if (c === '[' && text[i] === ']') i++;
      else {
        if (c === '{') {
          if (text[i] !== '"') return fail(`expected a string key or '}', found ${found()}`);
          const p = string();
          if (p) return p;
          space();
          if (text[i] !== ':') return fail(`expected ':' after the key, found ${found()}`);
          i++;
        }
        continue;
      }
      stack.pop();
    } else if (c === '"') {
      const p = string();
      if (p) return p;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const zero = leadingZero(text, i);
      if (zero) return fail(leadingZeroProblem(zero, false));
      const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
      m.lastIndex = i;
      const r = m.exec(text);
      if (!r) return fail(`bad number: a digit expected after ${found()}`);
      i += r[0].length;
      if (i < n && /[0-9.eE+-]/.test(text[i])) return fail(`bad number: ${JSON.stringify(text[i])} here`);
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else return fail(`expected a JSON value, found ${found()}`);
    // After a value: close containers or go on to the next item.
    for (;;) {
      space();
      const open = stack[stack.length - 1];
      if (open === undefined) {
        return i < n ? fail(`expected end of input after the value, found ${found()}`) : null;
      }
      const close = open === '{' ? '}' : ']';
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return fail(`expected ',' or '${close}', found ${found()}`);
      i++;
      if (open === '{') {
        space();
        if (text[i] !== '"') return fail(`expected a string key, found ${found()}`);
        const p = string();
        if (p) return p;
        space();
        if (text[i] !== ':') return fail(`expected ':' after the key, found ${found()}`);
        i++;
      }
      break;
    }
  }

  /** A string at i (on its opening quote); advances past it. */
  function string(): { offset: number; message: string } | null {
    const open = i++;
    for (;;) {
      if (i >= n) return fail(unclosedStringProblem(text, open), open);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c < 0x20) return fail('control character in a string: escape it (\\n, \\t, \\u00XX)');
      if (c >= 0xd800 && c <= 0xdfff) {
        if (c >= 0xdc00 || (text.charCodeAt(i + 1) & 0xfc00) !== 0xdc00)
          return fail('a lone surrogate, which UTF-8 cannot encode');
        i += 2;
        continue;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('bad \\u escape: 4 hex digits expected');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail(`unknown escape \\${e ?? ''}`);
        continue;
      }
      i++;
    }
  }
}
