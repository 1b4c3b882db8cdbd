/** What copying needs of `navigator.clipboard` (tests pass their own). */
export type ClipboardLike = Pick<Clipboard, 'writeText'>;

/**
 * Copies `text`: the async Clipboard API first, then a hidden, selected textarea and
 * `document.execCommand('copy')` (DevTools panels and non-secure pages may lack the API or
 * reject it). Resolves to whether either way worked.
 */
export async function copyText(
  text: string,
  clipboard: ClipboardLike | null | undefined,
  doc: Document = document,
): Promise<boolean> {
  if (clipboard) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // fall through to the textarea
    }
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.style.position = 'fixed';
  area.style.top = '0';
  area.style.left = '-9999px';
  area.style.opacity = '0';
  doc.body.appendChild(area);
  try {
    area.select();
    return typeof doc.execCommand === 'function' ? doc.execCommand('copy') : false;
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
