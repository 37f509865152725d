import { useEffect, useState } from 'react';
import { isAbort, isAuthError, type ListState, type Page } from './api.ts';

export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * A list tab's rows, a page at a time: loads with `load` (keep it stable with useCallback) whenever the page,
 * the page size or `reload()` asks for it, aborts what a newer load replaces, and signs the admin out on 401.
 * `pager` spreads into <Pager>.
 */
export function usePagedList<Row>(
  load: (paging: Paging, signal: AbortSignal) => Promise<Page<Row>>,
  onUnauthorized: () => void,
  firstPageSize: number,
) {
  const [paging, setPaging] = useState<Paging>({ page: 1, pageSize: firstPageSize });
  const [list, setList] = useState<ListState<Row>>({ status: 'loading', rows: [], total: 0 });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(paging, controller.signal).then(
      ({ rows, total }) => setList({ status: 'ready', rows, total }),
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        console.error('A list failed to load:', (error as { status?: number }).status ?? 'error');
        setList({ status: 'failed', rows: [], total: 0 });
      },
    );
    return () => controller.abort();
  }, [load, paging, version, onUnauthorized]);

  return {
    list,
    setList,
    reload: () => setVersion((n) => n + 1),
    pager: {
      page: paging.page,
      pageSize: paging.pageSize,
      total: list.total,
      onPage: (page: number) => setPaging((p) => ({ ...p, page })),
      onPageSize: (pageSize: number) => setPaging({ page: 1, pageSize }),
    },
  };
}
