// A job's id as a link to its detail panel: the open job lives in the URL (`?job=ID`) beside
// the list's filters, so a reload, the back button or a shared link keeps it.
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';

export const JOB_PARAM = 'job';

export function JobLink({ id, children, label }: { id: string; children?: ReactNode; label?: string }) {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.set(JOB_PARAM, id);
  return (
    <Link to={{ search: `?${next.toString()}` }} aria-label={label} className="nowrap">
      {children ?? <code>{id}</code>}
    </Link>
  );
}
