// User Detail, API Logs (#, Date, Services, Status Code, Amount) and Product Logs (#, Date,
// Description, Status Code, Amount): 50 per page, 'x of y pages'; code 200 green, others red.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate, formatRupees } from '@/lib/format';
import type { UserRef } from '@/lib/user-ref';
import { useUserLogs, type ApiLog, type LogKind, type ProductLog } from '../api/get-user-logs';

const PAGE_SIZE = 50;
type Row = ApiLog | ProductLog;

function columnsFor(kind: LogKind, page: number): ColumnDef<Row>[] {
  return [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    kind === 'api'
      ? { id: 'services', header: 'Services', cell: ({ row }) => (row.original as ApiLog).service }
      : { id: 'description', header: 'Description', cell: ({ row }) => (row.original as ProductLog).description },
    {
      id: 'status',
      header: 'Status Code',
      cell: ({ row }) => <span className={row.original.status_code === 200 ? 'credit' : 'debit'}>{row.original.status_code}</span>,
    },
    { id: 'amount', header: 'Amount', cell: ({ row }) => formatRupees(row.original.amount_paise) },
  ];
}

/** `clientId` when the super admin looks at a client's user. */
export function UserLogsTable({ userId, clientId, kind }: UserRef & { kind: LogKind }) {
  const [page] = usePageParam();
  const q = useUserLogs({ userId, clientId }, kind, page);
  return (
    <>
      <QueryTable<Row>
        query={q}
        columns={columnsFor(kind, page)}
        pageSize={PAGE_SIZE}
        emptyText="No logs available"
        pagingLabel={(p, n) => `${p} of ${n} pages`}
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
