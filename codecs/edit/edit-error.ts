/**
 * What an edit gives back: the new bytes, or why the text does not encode — a message and
 * where (0-based character offset, 1-based line and column) — and no bytes at all.
 */
export interface EditError {
  readonly message: string;
  /** Character offset (UTF-16 code units) into the edited text. */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export type EditResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: EditError };

/** The 1-based line and column of `offset` in `text` (lines end at \n, \r\n or \r). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function editError(text: string, offset: number, message: string): EditError {
  return { message, offset, ...lineColumn(text, offset) };
}

/** `3:14: expected ']'` — how the CLI and the UI print an edit error. */
export function editErrorText(error: EditError): string {
  return `${error.line}:${error.column}: ${error.message}`;
}
