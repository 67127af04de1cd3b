// The paging bar for lists that are not tables (user cards); page in the URL like DataTable.
import { usePageParam } from './data-table';

export function Pager({ pages, param = 'page', label = (p, n) => `${p} of ${n}` }: { pages: number; param?: string; label?: (page: number, pages: number) => string }) {
  const [page, setPage] = usePageParam(param);
  const total = Math.max(pages, 1);
  const current = Math.min(page, total);
  return (
    <div className="table-paging">
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setPage(current - 1)} disabled={current <= 1} aria-label="Previous page">
        ‹
      </button>
      <span className="paging-label">{label(current, total)}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setPage(current + 1)} disabled={current >= total} aria-label="Next page">
        ›
      </button>
    </div>
  );
}
