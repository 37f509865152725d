import type { ListState } from './api.ts';

interface Props {
  list: ListState<unknown>;
  copy: { loading: string; load_failed: string; retry: string; empty: string };
  onRetry: () => void;
}

/**
 * What a list tab shows instead of rows: loading, a failure with a retry, or its empty state; `null` when
 * there are rows to show.
 */
export function ListFallback({ list, copy, onRetry }: Props) {
  if (list.status === 'loading') {
    return (
      <p className="admin-status" role="status">
        {copy.loading}
      </p>
    );
  }
  if (list.status === 'failed') return <LoadFailed copy={copy} onRetry={onRetry} />;
  if (list.total > 0) return null;
  return (
    <div className="admin-empty" role="status">
      <p>{copy.empty}</p>
    </div>
  );
}

/** A load that failed, and a button to try again. */
export function LoadFailed({
  copy,
  onRetry,
}: {
  copy: { load_failed: string; retry: string };
  onRetry: () => void;
}) {
  return (
    <div className="admin-empty" role="status">
      <p>{copy.load_failed}</p>
      <button type="button" className="admin-button" onClick={onRetry}>
        {copy.retry}
      </button>
    </div>
  );
}
