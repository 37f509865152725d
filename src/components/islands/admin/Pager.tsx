import { useId } from 'react';
import type { PagerCopy } from './copy.ts';
import { fill } from './format.ts';

export const PAGE_SIZES = [25, 50, 100] as const;

interface Props {
  /** Accessible name of the navigation, e.g. "Subscriber list pages". */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  copy: PagerCopy;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/**
 * Previous/next through the API's pages, the range shown, and the page size (25, 50 or 100 rows). At either
 * end the step buttons stay focusable (aria-disabled) so keyboard focus is not dropped on the last page.
 */
export function Pager({ label, page, pageSize, total, copy, onPage, onPageSize }: Props) {
  const id = useId();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav className="admin-pager" aria-label={label}>
      <div className="admin-pager__size">
        <label htmlFor={`${id}-size`}>{copy.page_size}</label>
        <select
          id={`${id}-size`}
          className="admin-select"
          value={pageSize}
          onChange={(event) => onPageSize(Number(event.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <p className="admin-pager__range">{fill(copy.range, { from, to, total })}</p>
      <div className="admin-pager__steps">
        <button
          type="button"
          className="admin-button admin-button--quiet"
          aria-disabled={page <= 1}
          onClick={() => page > 1 && onPage(page - 1)}
        >
          <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M12.5 4.5L7 10l5.5 5.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
          {copy.previous}
        </button>
        <p className="admin-pager__position" aria-live="polite">
          {fill(copy.position, { page, pages })}
        </p>
        <button
          type="button"
          className="admin-button admin-button--quiet"
          aria-disabled={page >= pages}
          onClick={() => page < pages && onPage(page + 1)}
        >
          {copy.next}
          <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M7.5 4.5L13 10l-5.5 5.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
        </button>
      </div>
    </nav>
  );
}
