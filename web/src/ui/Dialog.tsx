import { useCallback, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ApiError } from '../api/client';
import { ErrorMessage } from './ErrorMessage';

export interface DialogControl {
  ref: RefObject<HTMLDialogElement | null>;
  isOpen: boolean;
  /** Opens as a modal: the rest of the page is inert, so Tab stays inside; Escape closes. */
  open(): void;
  /** Closes; focus returns to the control that opened it unless the caller moves it elsewhere. */
  close(options?: { restoreFocus?: boolean }): void;
  onClosed(): void;
}

/** A modal dialog's state: the native <dialog> traps focus, the opener gets it back on close. */
export function useDialog(): DialogControl {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const restore = useRef(true);
  const [isOpen, setOpen] = useState(false);
  const open = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    restore.current = true;
    setOpen(true);
    if (!ref.current?.open) ref.current?.showModal();
  }, []);
  const close = useCallback((options: { restoreFocus?: boolean } = {}) => {
    restore.current = options.restoreFocus ?? true;
    ref.current?.close();
    if (!restore.current) opener.current = null;
  }, []);
  const onClosed = useCallback(() => {
    setOpen(false);
    if (restore.current && opener.current?.isConnected) opener.current.focus();
    opener.current = null;
  }, []);
  return { ref, isOpen, open, close, onClosed };
}

/** A titled modal dialog with a close button; its content is rendered only while open. */
export function Dialog({ control, title, children }: { control: DialogControl; title: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <dialog ref={control.ref} aria-labelledby={titleId} onClose={control.onClosed} className="dialog">
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" onClick={() => control.close()} aria-label="Close dialog">
          ×
        </button>
      </header>
      {control.isOpen ? children : null}
    </dialog>
  );
}

/** The end of a dialog's form: its submit button (`children`), Cancel, and what went wrong. */
export function DialogActions({
  control,
  disabled,
  problem,
  children,
}: {
  control: DialogControl;
  disabled: boolean;
  problem: ApiError | undefined;
  children: ReactNode;
}) {
  return (
    <>
      <div className="actions">
        <button type="submit" disabled={disabled}>
          {children}
        </button>
        <button type="button" onClick={() => control.close()}>
          Cancel
        </button>
      </div>
      <ErrorMessage problem={problem} />
    </>
  );
}
