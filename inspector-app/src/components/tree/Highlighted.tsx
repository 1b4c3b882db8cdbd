import type { ReactElement } from 'react';

/**
 * `text` with every case-insensitive occurrence of `needle` in a <mark> (React text nodes:
 * frame content never becomes markup).
 */
export function Highlighted(props: { text: string; needle: string }): ReactElement {
  const { text, needle } = props;
  if (!needle) return <>{text}</>;
  const lower = text.toLowerCase();
  const parts: (string | ReactElement)[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} className="ws-match">
        {text.slice(at, at + needle.length)}
      </mark>,
    );
    from = at + needle.length;
  }
  if (!parts.length) return <>{text}</>;
  if (from < text.length) parts.push(text.slice(from));
  return <>{parts}</>;
}
