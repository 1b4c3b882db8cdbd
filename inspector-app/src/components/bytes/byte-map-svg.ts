/**
 * "Copy as SVG": the drawn treemap as a standalone SVG document. The page colours it with
 * CSS variables (the hex's tones, per theme); the copy gets the colours they resolve to as
 * attributes, so it looks the same wherever it is pasted. Built with the DOM's own
 * serializer from a clone: frame text stays text, escaped.
 */
const PAINT = ['fill', 'stroke', 'stroke-width', 'font-size', 'font-family', 'opacity'] as const;

export function svgMarkup(svg: SVGSVGElement, view: Pick<Window, 'getComputedStyle'> = window): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  for (let i = 0; i < from.length; i++) {
    const el = to[i]!;
    const tag = el.tagName.toLowerCase();
    if (tag === 'rect' || tag === 'text') {
      const style = view.getComputedStyle(from[i]!);
      for (const p of PAINT) {
        const v = style.getPropertyValue(p);
        if (v) el.setAttribute(p, v);
      }
    }
    for (const a of [...el.attributes])
      if (a.name === 'class' || a.name === 'tabindex' || a.name === 'role' || a.name.startsWith('data-'))
        el.removeAttribute(a.name);
  }
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return new XMLSerializer().serializeToString(copy);
}
