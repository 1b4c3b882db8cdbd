import { useEffect, useRef, type ReactElement } from 'react';
import { SHORTCUT_HELP } from './shortcuts.js';

/**
 * The `?` overlay: every key the inspector answers. Esc, `?` or the button closes it; focus goes
 * back where it was, or, when nothing had it (the page's body), to `focusAfter` (the frame list),
 * so Esc and the arrows answer again at once.
 */
export function HelpOverlay(props: { readonly onClose: () => void; readonly focusAfter: () => void }): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  const focusAfter = useRef(props.focusAfter);
  focusAfter.current = props.focusAfter;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    return () => {
      if (before && before !== document.body && before.isConnected) before.focus();
      else focusAfter.current();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes, as Escape does from the keyboard
    <div
      className="ws-help-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) props.onClose();
      }}
    >
      <div
        ref={ref}
        className="ws-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="ws-help-title"
        tabIndex={-1}
        data-testid="help-overlay"
        onKeyDown={(e) => {
          // The keys are the overlay's while it is open: no skip key jumps behind it.
          e.stopPropagation();
          if (e.key === 'Escape' || e.key === '?') {
            e.preventDefault();
            props.onClose();
          }
        }}
      >
        <div className="ws-help-head">
          <h2 id="ws-help-title">Keyboard</h2>
          <button type="button" onClick={props.onClose}>
            Close
          </button>
        </div>
        <table>
          <tbody>
            {SHORTCUT_HELP.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  <kbd>{s.keys}</kbd>
                </th>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
