import { useEffect, useRef, type RefObject } from 'react';

/**
 * Opens and closes a native modal `<dialog>` with `open`: the browser traps focus and makes the page inert.
 * Focus starts on `first` and returns to the element that had it before, if that is still on the page (a
 * deleted row takes its button along). `onOpen` runs as it opens (to clear an old error).
 * @returns the ref for the `<dialog>` element.
 */
export function useModal(
  open: boolean,
  first: RefObject<HTMLElement | null>,
  onOpen?: () => void,
): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const opened = useRef(onOpen);
  opened.current = onOpen;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      opened.current?.();
      element.showModal();
      first.current?.focus();
    } else if (!open && element.open) {
      element.close();
      if (opener.current?.isConnected) opener.current.focus();
      opener.current = null;
    }
  }, [open, first]);
  return dialog;
}
