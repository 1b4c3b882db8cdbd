import { useId, type ReactElement, type ReactNode } from 'react';
import { useToolbarDialog } from './use-toolbar-dialog.js';

/**
 * A toolbar button that opens a dialog below it (Schemas, Intercept): the button, the
 * dialog's frame and its heading with a Close button; the body is the caller's.
 */
export function ToolbarDialog(props: {
  /** The wrapper's class (positions the dialog under its button). */
  className: string;
  /** The button's text (it may carry counts). */
  label: string;
  buttonTitle: string;
  buttonTestId: string;
  buttonClassName?: string;
  heading: string;
  dialogClassName: string;
  dialogTestId: string;
  children: ReactNode;
}): ReactElement {
  const { open, close, toggle, buttonRef, dialogRef, onKeyDown } = useToolbarDialog();
  const headingId = useId();
  return (
    <span className={props.className}>
      <button
        ref={buttonRef}
        type="button"
        data-testid={props.buttonTestId}
        aria-expanded={open}
        aria-haspopup="dialog"
        className={props.buttonClassName}
        onClick={toggle}
        title={props.buttonTitle}
      >
        {props.label}
      </button>
      {open && (
        <div
          ref={dialogRef}
          role="dialog"
          aria-labelledby={headingId}
          tabIndex={-1}
          className={props.dialogClassName}
          data-testid={props.dialogTestId}
          onKeyDown={onKeyDown}
        >
          <div className="ws-schemas-head">
            <h2 id={headingId}>{props.heading}</h2>
            <button type="button" aria-label="Close" title="Close (Escape)" onClick={close}>
              ×
            </button>
          </div>
          {props.children}
        </div>
      )}
    </span>
  );
}
