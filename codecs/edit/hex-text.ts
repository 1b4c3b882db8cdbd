import { type EditResult, editError } from './edit-error.js';

/** Bytes as hex, 16 a line: how a frame (or a framing's inner value) no notation reads is edited. */
export function hexText(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row: string[] = [];
    for (let j = i; j < Math.min(i + 16, bytes.length); j++) row.push(bytes[j]!.toString(16).padStart(2, '0'));
    lines.push(row.join(' '));
  }
  return lines.join('\n');
}

/** Hex digits, any whitespace between bytes; an odd digit or any other character is an error at its line and column. */
export function bytesFromHex(text: string): EditResult {
  const out: number[] = [];
  let high = -1;
  let highAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      if (high >= 0) return { ok: false, error: editError(text, highAt, 'a byte is two hex digits') };
      continue;
    }
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0)
      return { ok: false, error: editError(text, i, `expected a hex digit, found ${JSON.stringify(text[i])}`) };
    if (high < 0) {
      high = d;
      highAt = i;
    } else {
      out.push(high * 16 + d);
      high = -1;
    }
  }
  if (high >= 0) return { ok: false, error: editError(text, highAt, 'a byte is two hex digits') };
  return { ok: true, bytes: Uint8Array.from(out) };
}
