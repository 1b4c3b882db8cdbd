import { type EditError, editError } from '../edit-error.js';
import { jsonProblem } from '../json-text.js';
import { type InnerNotation, NOTATION_NAMES, notationNamed } from './inner-value.js';

/**
 * The edit text of a framed frame: `#` comment lines, the framing's own lines (`name: value`
 * with a JSON value, or a framing's native header lines), a separator naming the inner
 * value and its notation (`--- payload as EDN`), then the inner value in that notation, to
 * the end of the text:
 *
 *     # MQTT PUBLISH: edit the fields and the payload; the packet is rebuilt around them
 *     topic: "sensors/1"
 *     qos: 1
 *     --- payload as JSON
 *     {"t": 21.5}
 */
export interface HeadLine {
  readonly text: string;
  /** Offset of the line's first character in the whole edit text. */
  readonly offset: number;
}

export interface FramedParts {
  /** The lines before the separator, comments and blank lines left out. */
  readonly head: readonly HeadLine[];
  readonly notation: InnerNotation;
  readonly body: string;
  readonly bodyOffset: number;
}

const SEPARATOR = '--- ';

export function framedText(
  comments: readonly string[],
  head: readonly string[],
  part: string,
  inner: { readonly notation: InnerNotation; readonly text: string },
): string {
  return [
    ...comments.map((c) => `# ${c}`),
    ...head,
    `${SEPARATOR}${part} as ${NOTATION_NAMES[inner.notation]}`,
    inner.text,
  ].join('\n');
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: EditError };

export function parseFramedText(text: string): Parsed<FramedParts> {
  const head: HeadLine[] = [];
  let at = 0;
  while (at <= text.length) {
    let eol = text.indexOf('\n', at);
    if (eol < 0) eol = text.length;
    const line = text.slice(at, eol).replace(/\r$/, '');
    if (line.startsWith(SEPARATOR) || line === SEPARATOR.trimEnd()) {
      const as = line.lastIndexOf(' as ');
      const notation = as < 0 ? null : notationNamed(line.slice(as + 4).trim());
      if (!notation)
        return fail(
          text,
          at,
          `the separator names the value's notation: '--- … as ${Object.values(NOTATION_NAMES).join("' / '")}'`,
        );
      const bodyOffset = Math.min(text.length, eol + 1);
      return { ok: true, value: { head, notation, body: text.slice(bodyOffset), bodyOffset } };
    }
    if (line.trim() !== '' && !line.startsWith('#')) head.push({ text: line, offset: at });
    at = eol + 1;
  }
  return fail(text, text.length, "expected the separator line '--- … as NOTATION' before the value");
}

export function fail(text: string, offset: number, message: string): { readonly ok: false; readonly error: EditError } {
  return { ok: false, error: editError(text, offset, message) };
}

/** A `name: value` line's parts; the value is JSON (checked here). */
export interface FieldLine {
  readonly name: string;
  /** The value's JSON text as written. */
  readonly raw: string;
  readonly value: unknown;
  /** Offset of the value in the whole edit text. */
  readonly offset: number;
}

/** Reads `name: JSON` lines; every name in `names` must appear once, no other. */
export function fieldLines(
  text: string,
  head: readonly HeadLine[],
  names: readonly string[],
): Parsed<Map<string, FieldLine>> {
  const out = new Map<string, FieldLine>();
  for (const line of head) {
    const colon = line.text.indexOf(': ');
    if (colon < 0) return fail(text, line.offset, "expected 'name: value'");
    const name = line.text.slice(0, colon).trim();
    if (!names.includes(name))
      return fail(text, line.offset, `unknown field ${JSON.stringify(name)} (the fields: ${names.join(', ')})`);
    if (out.has(name)) return fail(text, line.offset, `${JSON.stringify(name)} is given twice`);
    const start = colon + 2;
    const raw = line.text.slice(start).trim();
    const offset = line.offset + start + (line.text.slice(start).length - line.text.slice(start).trimStart().length);
    const problem = jsonProblem(raw);
    if (problem) return fail(text, offset + problem.offset, `${name}: ${problem.message}`);
    out.set(name, { name, raw, value: JSON.parse(raw), offset });
  }
  const firstMissing = names.find((n) => !out.has(n));
  if (firstMissing !== undefined)
    return fail(text, head[head.length - 1]?.offset ?? 0, `the field ${JSON.stringify(firstMissing)} is missing`);
  return { ok: true, value: out };
}
