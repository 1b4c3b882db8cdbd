/**
 * Indents one-line EDN (codecs' `diagnostic`) for reading: one item per line inside arrays
 * and maps, two spaces per level; strings, byte strings (`h'…'`, `b64'…'`) and embedded
 * CBOR (`<<…>>`) are copied as they are. One pass over the text, no recursion, so a cut
 * (truncated) or deeply nested text prints too.
 */
export function prettyEdn(edn: string): string {
  const out: string[] = [];
  let depth = 0;
  let embedded = 0;
  const newline = () => out.push('\n' + '  '.repeat(depth));
  let i = 0;
  while (i < edn.length) {
    const c = edn[i];
    if (c === '"' || c === "'") {
      // A string or byte string: up to the unescaped closing quote.
      let j = i + 1;
      while (j < edn.length && edn[j] !== c) j += edn[j] === '\\' ? 2 : 1;
      out.push(edn.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '<' && edn[i + 1] === '<') embedded++;
    if (c === '>' && edn[i + 1] === '>' && embedded > 0) embedded--;
    if (embedded > 0) {
      out.push(c);
      i++;
      continue;
    }
    if (c === '[' || c === '{') {
      const close = c === '[' ? ']' : '}';
      let j = i + 1;
      let open = c;
      // Indefinite length: `[_ ` stays on the opening line.
      if (edn[j] === '_') {
        open += '_';
        j++;
        if (edn[j] === ' ') j++;
      }
      out.push(open);
      if (edn[j] === close) {
        out.push(close);
        i = j + 1;
        continue;
      }
      depth++;
      newline();
      i = j;
      continue;
    }
    if (c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
      newline();
      out.push(c);
      i++;
      continue;
    }
    if (c === ',' && depth > 0) {
      out.push(',');
      newline();
      i++;
      if (edn[i] === ' ') i++;
      continue;
    }
    out.push(c);
    i++;
  }
  return out.join('');
}
