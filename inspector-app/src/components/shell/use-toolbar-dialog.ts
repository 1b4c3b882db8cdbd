import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

/**
 * A dialog that floats below its toolbar button (Schemas, Intercept): kept inside the window,
 * focused when it opens; Escape or close gives focus back to the button. Escape closes the
 * dialog only, not the frame detail behind it.
 */
export function useToolbarDialog() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog) return;
    dialog.style.left = '0px';
    const overflow = dialog.getBoundingClientRect().right - (window.innerWidth - 8);
    if (overflow > 0) dialog.style.left = `${-overflow}px`;
    dialog.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return {
    open,
    close,
    toggle: () => (open ? close() : setOpen(true)),
    buttonRef,
    dialogRef,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      close();
    },
  };
}
