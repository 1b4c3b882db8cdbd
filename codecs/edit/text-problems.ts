import { lineColumn } from './edit-error.js';

/**
 * The edit texts' (JSON, EDN, MessagePack) common mistakes, said in the user's words with
 * what to do: an invisible byte order mark, a number with a leading zero, a string left open
 * (often by a `\"` meant as its end).
 */

export const BYTE_ORDER_MARK = '\uFEFF';

export const BYTE_ORDER_MARK_PROBLEM =
  'an invisible byte order mark (U+FEFF) stands here, often pasted in with the text: delete it, it is not part of the value';

/** `012`, `-007.5`: the digits that start with a zero and go on, or null. */
export function leadingZero(text: string, at: number): string | null {
  const m = /-?0\d+(?:\.\d+)?/y;
  m.lastIndex = at;
  return m.exec(text)?.[0] ?? null;
}

/** What to say of `012`: no number starts with 0; the value meant, and octal where the notation has it. */
export function leadingZeroProblem(number: string, octal: boolean): string {
  const fixed = number.replace(/^(-?)0+(?=\d)/, '$1');
  const digits = number.replace(/^-/, '');
  const octalHint =
    octal && /^[0-7]+$/.test(digits)
      ? ` (or ${number.startsWith('-') ? '-' : ''}0o${digits.replace(/^0+(?=\d)/, '')} for octal)`
      : '';
  return `a number cannot start with 0 (${number}): write ${fixed}${octalHint}`;
}

/**
 * The string opened at `open` runs to the end of the text: say so, and when a `\"` inside it
 * was likely meant as its end, where that is.
 */
export function unclosedStringProblem(text: string, open: number): string {
  let escapedQuote = -1;
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] !== '\\') continue;
    if (text[i + 1] === '"') escapedQuote = i;
    i++;
  }
  const base = `this string is not closed: end it with '"'`;
  if (escapedQuote < 0) return base;
  const { line, column } = lineColumn(text, escapedQuote);
  return `${base} (the \\" at ${line}:${column} is an escaped quote, part of the string; for a backslash at the end write \\\\")`;
}
