// How an export reads on a screen (spec part 1 §4): not completed is 'In process' with the rows
// written so far, and 'Link will be available soon' where its links will be; completed shows
// its links, or 'No records' when there are none.
import { formatCount } from '@/lib/format';
import type { Export } from '../api/types';

export function ExportStatusText({ item }: { item: Export }) {
  if (item.status === 'completed') return <span className="credit">Completed</span>;
  if (item.status === 'failed') return <span className="debit">Failed</span>;
  return (
    <span>
      In process
      {item.rows_written > 0 && <span className="muted export-progress"> ({formatCount(item.rows_written)} rows written)</span>}
    </span>
  );
}

export function ExportLinks({ item }: { item: Export }) {
  if (item.status === 'failed') return <span className="muted">_</span>;
  if (item.status !== 'completed') return <span className="muted">Link will be available soon</span>;
  if (item.urls.length === 0) return <span>No records</span>;
  if (item.urls.length === 1) {
    return (
      <a href={item.urls[0]} download className="export-link">
        Download CSV
      </a>
    );
  }
  return (
    <ul className="export-links">
      {item.urls.map((url, i) => (
        <li key={url}>
          <a href={url} download className="export-link" aria-label={`Download part ${i + 1} of ${item.urls.length}`}>
            Part {i + 1}
          </a>
        </li>
      ))}
    </ul>
  );
}
