import { useEffect, useId, useRef, type MouseEvent } from 'react';

interface Props {
  open: boolean;
  title: string;
  text: string;
  /** What the action applies to, e.g. the address to delete. */
  detail: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation on the native `<dialog>`: the browser traps focus and makes the page inert. Focus
 * starts on Cancel, the harmless choice, and returns to the opener; Escape and a click on the backdrop cancel.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  detail,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const id = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) {
      element.close();
      // Back to the button that opened it, if it is still there (a deleted row takes its button along).
      if (opener.current?.isConnected) opener.current.focus();
      opener.current = null;
    }
  }, [open]);

  // Only the backdrop reports the dialog itself as the target: the content fills the dialog box.
  const onBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === dialog.current) onCancel();
  };

  return (
    <dialog
      ref={dialog}
      className="admin-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClick={onBackdrop}
    >
      <div className="admin-dialog__body">
        <h2 id={`${id}-title`} className="admin-dialog__title">
          {title}
        </h2>
        <p id={`${id}-text`}>
          {text} <strong className="admin-dialog__detail">{detail}</strong>
        </p>
        <div className="admin-dialog__actions">
          <button ref={cancel} type="button" className="admin-button" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className="admin-button admin-button--danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
