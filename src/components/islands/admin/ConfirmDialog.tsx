import { useId, useRef, type MouseEvent } from 'react';
import { useModal } from './modal.ts';

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
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  const dialog = useModal(open, cancel);

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
