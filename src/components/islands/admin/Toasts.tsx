import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC §9: toasts close by themselves after 5 s. */
export const TOAST_DURATION_MS = 5000;

export type ToastTone = 'success' | 'error';

export interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
}

let nextId = 1;

/** The island's toast queue: `notify` adds one, `dismiss` removes one. */
export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const notify = useCallback((text: string, tone: ToastTone = 'success') => {
    setToasts((list) => [...list, { id: nextId++, text, tone }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  return { toasts, notify, dismiss };
}

function ToastItem({ toast, onDismiss, dismissLabel, durationMs }: ItemProps) {
  const remaining = useRef(durationMs);
  const startedAt = useRef(0);
  const timer = useRef<number | undefined>(undefined);

  const start = useCallback(() => {
    window.clearTimeout(timer.current);
    startedAt.current = Date.now();
    timer.current = window.setTimeout(() => onDismiss(toast.id), remaining.current);
  }, [onDismiss, toast.id]);
  // Hovering or focusing a toast holds it open (WCAG 2.2.1); leaving resumes the time that was left.
  const hold = () => {
    window.clearTimeout(timer.current);
    remaining.current = Math.max(1000, remaining.current - (Date.now() - startedAt.current));
  };

  useEffect(() => {
    start();
    return () => window.clearTimeout(timer.current);
  }, [start]);

  return (
    <div
      className={`admin-toast admin-toast--${toast.tone}`}
      onPointerEnter={hold}
      onPointerLeave={start}
      onFocus={hold}
      onBlur={start}
    >
      <svg className="admin-toast__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        {toast.tone === 'success' ? (
          <path d="M4.5 10.5l3.5 3.5 7.5-8" fill="none" stroke="currentColor" strokeWidth="2" />
        ) : (
          <path d="M10 4.5v7M10 14v1.5" fill="none" stroke="currentColor" strokeWidth="2" />
        )}
      </svg>
      <p className="admin-toast__text">{toast.text}</p>
      <button
        type="button"
        className="admin-toast__close"
        aria-label={dismissLabel}
        onClick={() => onDismiss(toast.id)}
      >
        <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path d="M5 5l10 10M15 5L5 15" fill="none" stroke="currentColor" strokeWidth="1.8" />
        </svg>
      </button>
    </div>
  );
}

interface ItemProps {
  toast: Toast;
  onDismiss: (id: number) => void;
  dismissLabel: string;
  durationMs: number;
}

interface Props {
  toasts: Toast[];
  onDismiss: (id: number) => void;
  label: string;
  dismissLabel: string;
  /** @default 5000 */
  durationMs?: number;
}

/**
 * Top-right notifications. The live region is in the page from the first render, so a toast added later is
 * announced; each toast closes after `durationMs` or with its own button.
 */
export function ToastRegion({
  toasts,
  onDismiss,
  label,
  dismissLabel,
  durationMs = TOAST_DURATION_MS,
}: Props) {
  return (
    <div className="admin-toasts" role="status" aria-live="polite" aria-label={label}>
      {toasts.map((toast) => (
        <ToastItem
          key={toast.id}
          toast={toast}
          onDismiss={onDismiss}
          dismissLabel={dismissLabel}
          durationMs={durationMs}
        />
      ))}
    </div>
  );
}
