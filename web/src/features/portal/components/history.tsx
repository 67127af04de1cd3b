// History: the user's API transactions and API logs, 50 a page, with a date filter in the URL
// and the route's 'Export to CSV' (the exports job) beside each list.
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { formatDate, formatRupees } from '@/lib/format';
import { useUrlFilter, type FilterField } from '@/lib/url-filter';
import { HISTORY_PAGE_SIZE, useOwnLogs, useOwnTransactions, type OwnLog, type OwnTransaction } from '../api/history';

export type HistoryKind = 'api_transactions' | 'api_logs';
const TABS = ['transactions', 'logs'] as const;
const DATE_KEYS = ['from', 'to', 'status_code'] as const;
const dateFields: FilterField<'from' | 'to' | 'status_code'>[] = [
  { key: 'from', label: 'From', type: 'date' },
  { key: 'to', label: 'To', type: 'date' },
];

/** The filter's own rule: From not after To (either may be left empty). */
// The Logs tab also filters by the answer's status code (a refused call's 402, 403, 404, 422, 429).
const logFields: FilterField<'from' | 'to' | 'status_code'>[] = [...dateFields, { key: 'status_code', label: 'Status Code', numeric: true }];

export function checkRange(v: { from: string; to: string; status_code?: string }): { from?: string; status_code?: string } {
  if (v.status_code && !/^\d{3}$/.test(v.status_code.trim())) return { status_code: 'Status code is a number from 100 to 599.' };
  return v.from && v.to && v.from > v.to ? { from: 'From date cannot be after To date' } : {};
}

const STATUS_TEXT: Record<string, string> = { success: 'Success', pending: 'Pending', failed: 'Failed', refunded: 'Refunded' };

const n = (page: number, index: number) => (page - 1) * HISTORY_PAGE_SIZE + index + 1;

function code(c: number | null) {
  if (c === null) return '_';
  return <span className={c >= 200 && c < 300 ? 'code-ok' : 'code-bad'}>{c}</span>;
}

type Props = {
  /** The route's Export to CSV for one list and the applied filter (the logs' status code too). */
  exportButton: (kind: HistoryKind, from?: string, to?: string, statusCode?: string) => ReactNode;
};

export function History({ exportButton }: Props) {
  const [tab, setTab] = useTabParam(TABS, 'transactions');
  const filter = useUrlFilter(DATE_KEYS);
  const f = { from: filter.values.from || undefined, to: filter.values.to || undefined };
  const logFilter = { ...f, status_code: filter.values.status_code || undefined };
  return (
    <>
      <FilterPanel
        name="Date filter"
        fields={tab === 'logs' ? logFields : dateFields.slice(0, 2)}
        value={filter.values}
        onApply={filter.apply}
        onClear={filter.clear}
        check={checkRange}
      />
      <Tabs
        tabs={[
          { key: 'transactions', label: 'Transactions' },
          { key: 'logs', label: 'Logs' },
        ]}
        active={tab}
        onChange={setTab}
      >
        {tab === 'transactions' ? (
          <>
            {exportButton('api_transactions', f.from, f.to)}
            <TransactionsTable filter={f} />
          </>
        ) : (
          <>
            {exportButton('api_logs', f.from, f.to, logFilter.status_code)}
            <LogsTable filter={logFilter} />
          </>
        )}
      </Tabs>
    </>
  );
}

function TransactionsTable({ filter }: { filter: { from?: string; to?: string } }) {
  const [page] = usePageParam();
  const q = useOwnTransactions(filter, page);
  const columns: ColumnDef<OwnTransaction>[] = [
    { id: 'n', header: '#', cell: ({ row }) => n(page, row.index) },
    { id: 'date', header: 'Date', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.created_at)}</span> },
    { id: 'id', header: 'Transaction ID', cell: ({ row }) => row.original.id },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
    { id: 'service', header: 'Services', cell: ({ row }) => row.original.service },
    { id: 'status', header: 'Status', cell: ({ row }) => STATUS_TEXT[row.original.status] ?? row.original.status },
    { id: 'amount', header: 'Amount', cell: ({ row }) => formatRupees(row.original.net_paise) },
    { id: 'balance', header: 'Balance', cell: ({ row }) => (row.original.balance_paise === null ? 'NA' : formatRupees(row.original.balance_paise)) },
    { id: 'type', header: 'Type', cell: ({ row }) => (row.original.amount_type === 'credit' ? 'Credit' : 'Debit') },
  ];
  return (
    <>
      <QueryTable
        query={q}
        columns={columns}
        pageSize={HISTORY_PAGE_SIZE}
        emptyText="No transactions available"
        pagingLabel={(p, t) => `${p} of ${t} pages`}
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}

function LogsTable({ filter }: { filter: { from?: string; to?: string; status_code?: string } }) {
  const [page] = usePageParam();
  const q = useOwnLogs(filter, page);
  const columns: ColumnDef<OwnLog>[] = [
    { id: 'n', header: '#', cell: ({ row }) => n(page, row.index) },
    { id: 'date', header: 'Date', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.created_at)}</span> },
    { id: 'service', header: 'Services', cell: ({ row }) => row.original.service },
    { id: 'vid', header: 'Verification ID', cell: ({ row }) => <span className="wrap-anywhere">{row.original.vid}</span> },
    { id: 'status', header: 'Status Code', cell: ({ row }) => code(row.original.status_code) },
    { id: 'amount', header: 'Amount', cell: ({ row }) => formatRupees(row.original.amount_paise) },
  ];
  return (
    <>
      <QueryTable
        query={q}
        columns={columns}
        pageSize={HISTORY_PAGE_SIZE}
        emptyText="No logs available"
        pagingLabel={(p, t) => `${p} of ${t} pages`}
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
