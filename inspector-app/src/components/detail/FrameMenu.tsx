import { useEffect, useRef, type KeyboardEvent, type ReactElement } from 'react';
import type { FrameActionKind } from '../../protocol/messages.js';
import './edit-and-send.css';

/** What a context-menu item asks of the open frame's actions (PageActions runs it). */
export type PageActionRequest = { readonly action: FrameActionKind | 'edit'; readonly seq: number };

const ITEMS: readonly { action: FrameActionKind | 'edit'; label: string; needs: FrameActionKind }[] = [
  { action: 'send', label: 'Send again', needs: 'send' },
  { action: 'edit', label: 'Edit and send', needs: 'send' },
  { action: 'deliver', label: 'Deliver to page', needs: 'deliver' },
];

/**
 * The frame list's context menu (right-click on a row): the actions
 * on the page, as menu items with the same names as the buttons. Arrow keys move, Enter
 * chooses, Escape or a click elsewhere closes.
 */
export function FrameMenu(props: {
  x: number;
  y: number;
  kinds: readonly FrameActionKind[];
  onChoose: (action: FrameActionKind | 'edit') => void;
  onClose: () => void;
}): ReactElement {
  const { x, y, kinds, onChoose, onClose } = props;
  const ref = useRef<HTMLDivElement>(null);
  const items = ITEMS.filter((i) => kinds.includes(i.needs));

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
    const away = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener('mousedown', away, true);
    return () => document.removeEventListener('mousedown', away, true);
  }, [onClose]);

  const onKeyDown = (e: KeyboardEvent) => {
    const all = [...(ref.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') onClose();
    else if (e.key === 'ArrowDown') all[(at + 1) % all.length]?.focus();
    else if (e.key === 'ArrowUp') all[(at - 1 + all.length) % all.length]?.focus();
    else return;
    e.preventDefault();
  };

  return (
    <div
      ref={ref}
      role="menu"
      aria-label="Act on the page"
      className="ws-frame-menu"
      data-testid="frame-menu"
      style={{
        left: Math.max(0, Math.min(x, window.innerWidth - 180)),
        top: Math.max(0, Math.min(y, window.innerHeight - 90)),
      }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.action}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            onChoose(item.action);
            onClose();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
