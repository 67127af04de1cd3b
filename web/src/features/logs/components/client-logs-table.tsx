// Client details, Api Logs (spec part 2 §2.15): date, userId, PID, VID, VPID, services; 50
// per page. The filters and the page live in the URL.
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate } from '@/lib/format';
import { CLIENT_LOGS_PAGE_SIZE, CLIENT_LOG_FILTERS, useClientLogs, type ClientLogFilters } from '../api/get-client-logs';
import type { ApiLog } from '../api/get-user-logs';

const columns: ColumnDef<ApiLog>[] = [
  { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
  { id: 'user', header: 'userId', cell: ({ row }) => row.original.user_id },
  { id: 'pid', header: 'PID', cell: ({ row }) => <code>{row.original.pid}</code> },
  { id: 'vid', header: 'VID', cell: ({ row }) => <code className="nowrap">{row.original.vid || '_'}</code> },
  { id: 'vpid', header: 'VPID', cell: ({ row }) => <code>{row.original.vpid || '_'}</code> },
  { id: 'service', header: 'services', cell: ({ row }) => row.original.service },
  {
    id: 'status',
    header: 'Status Code',
    cell: ({ row }) => <span className={row.original.status_code === 200 ? 'credit' : 'debit'}>{row.original.status_code}</span>,
  },
];

const LABELS: Record<keyof ClientLogFilters, string> = {
  from: 'From date',
  to: 'To date',
  user_id: 'User Id',
  pid: 'PID',
  vid: 'VID',
  vpid: 'VPID',
  service: 'Services',
};

type ServiceOption = { service: string; name: string };

export function ClientLogsTable({ clientId, services }: { clientId: number; services: ServiceOption[] }) {
  const [params, setParams] = useSearchParams();
  const [page] = usePageParam();
  const key = CLIENT_LOG_FILTERS.map((k) => params.get(k) ?? '').join('\u0000');
  const filters = useMemo(() => {
    const values = key.split('\u0000');
    return Object.fromEntries(CLIENT_LOG_FILTERS.map((k, i) => [k, values[i]])) as ClientLogFilters;
  }, [key]);
  const [draft, setDraft] = useState<ClientLogFilters>(filters);
  const [error, setError] = useState<string | null>(null);
  const logs = useClientLogs(clientId, filters, page);

  const apply = (f: ClientLogFilters) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      p.delete('page');
      for (const k of CLIENT_LOG_FILTERS) {
        if (f[k].trim()) p.set(k, f[k].trim());
        else p.delete(k);
      }
      return p;
    });

  return (
    <div className="page">
      <form
        className="filter-panel"
        aria-label="Filter API logs"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!/^\d*$/.test(draft.user_id.trim())) {
            setError('User ID contains only numeric values.');
            return;
          }
          setError(null);
          apply(draft);
        }}
      >
        <div className="filter-fields">
          {CLIENT_LOG_FILTERS.map((k) => (
            <div className="field" key={k}>
              <label htmlFor={`log-${k}`}>{LABELS[k]}</label>
              {k === 'service' ? (
                <select id="log-service" value={draft.service} onChange={(e) => setDraft({ ...draft, service: e.target.value })}>
                  <option value="">All</option>
                  {services.map((s) => (
                    <option key={s.service} value={s.service}>
                      {s.name}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`log-${k}`}
                  type={k === 'from' || k === 'to' ? 'date' : 'text'}
                  inputMode={k === 'user_id' ? 'numeric' : undefined}
                  value={draft[k]}
                  aria-invalid={k === 'user_id' && !!error}
                  onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
                />
              )}
              {k === 'user_id' && error && <span className="field-error">{error}</span>}
            </div>
          ))}
        </div>
        <div className="button-row">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              const empty = Object.fromEntries(CLIENT_LOG_FILTERS.map((k) => [k, ''])) as ClientLogFilters;
              setDraft(empty);
              setError(null);
              apply(empty);
            }}
          >
            Clear
          </button>
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
        </div>
      </form>
      {logs.data && <p className="muted">{`${logs.data.total} logs`}</p>}
      <QueryTable
        query={logs}
        columns={columns}
        pageSize={CLIENT_LOGS_PAGE_SIZE}
        emptyText="No logs available"
        getRowId={(r) => String(r.id)}
      />
    </div>
  );
}
