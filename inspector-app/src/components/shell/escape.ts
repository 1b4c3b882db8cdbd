import type { KeyboardEvent } from 'react';

/**
 * Whether an Escape keydown should close the detail pane: not when a control took it
 * already, nor while typing in a field, a select or the Monaco editor (Escape there closes
 * its own widgets).
 */
export function closesDetail(e: Pick<KeyboardEvent, 'key' | 'defaultPrevented' | 'target'>): boolean {
  if (e.key !== 'Escape' || e.defaultPrevented) return false;
  const target = e.target as Element | null;
  if (!target || typeof target.closest !== 'function') return true;
  return !target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], .monaco-editor');
}
