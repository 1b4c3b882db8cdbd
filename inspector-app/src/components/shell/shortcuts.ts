/** A one-key jump: where the keyboard goes without tabbing through every control on the way. */
export type SkipKey = 'tree' | 'hex' | 'bytes' | 'text' | 'filter' | 'list' | 'help';

const SKIP_KEYS: Readonly<Record<string, SkipKey>> = {
  t: 'tree',
  h: 'hex',
  b: 'bytes',
  x: 'text',
  '/': 'filter',
  l: 'list',
  '?': 'help',
};

/** Every key the inspector answers, as the `?` overlay lists them. */
export const SHORTCUT_HELP: readonly { readonly keys: string; readonly does: string }[] = [
  { keys: 't', does: 'Tree: show the tree and put the keyboard in it' },
  { keys: 'h', does: 'Hex: the bytes beside the tree (or the Hex tab when hidden)' },
  { keys: 'b', does: 'Bytes tab' },
  { keys: 'x', does: 'Text tab' },
  { keys: 'l', does: 'Frame list' },
  { keys: '/', does: 'Filter the frames by decoded content' },
  { keys: '↑ ↓  Home End  PgUp PgDn', does: 'Previous / next frame (in the list)' },
  { keys: 'Esc', does: 'Close the frame; ↓ then opens the one after it' },
  { keys: '← →  Enter', does: 'Tree: close / open a node' },
  { keys: '*', does: 'Tree: open everything below the selected node' },
  { keys: '?', does: 'Show or hide this list' },
];

/** Where letters are typed: text fields (not checkboxes, radios or buttons), selects, editors. */
const TYPING_TARGETS =
  'textarea, select, [contenteditable=""], [contenteditable="true"], .monaco-editor, ' +
  'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=range]):not([type=color]):not([type=file])';

/**
 * The jump a keydown asks for, or null: not while typing in a field, a select or the Monaco
 * editor (a focused checkbox or button takes no letters: the keys answer there), not with Ctrl, Alt or ⌘ (the browser's own keys), not when a control took it already.
 */
export function skipKeyOf(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey' | 'defaultPrevented' | 'target'>,
): SkipKey | null {
  if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey) return null;
  const skip = SKIP_KEYS[e.key];
  if (!skip) return null;
  const target = e.target as Element | null;
  if (target && typeof target.closest === 'function') {
    if (target.closest(TYPING_TARGETS)) return null;
  }
  return skip;
}

/**
 * Focuses the first element matching `selector` under `root` once it is drawn (a tab that
 * just opened draws on a later frame; a tree waits for its decode): tries for about a second.
 */
export function focusWhenDrawn(root: ParentNode, selector: string, tries = 60): void {
  const el = root.querySelector<HTMLElement>(selector);
  if (el) {
    el.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusWhenDrawn(root, selector, tries - 1));
}
