// User Transactions, API logs (#, Date, User ID, PID, Services, Status Code, Amount) and
// Product logs (#, Date, User ID, Description, Status Code, Amount): every user's, 50 per page,
// 'N of M'; code 200 green, others red.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate, formatRupees } from '@/lib/format';
import type { PartnerFilter } from '@/lib/partner-filter';
import { usePartnerLogs } from '../api/get-partner-logs';
import type { ApiLog, LogKind, ProductLog } from '../api/get-user-logs';

const PAGE_SIZE = 50;
type Row = ApiLog | ProductLog;

function columnsFor(kind: LogKind, page: number): ColumnDef<Row>[] {
  const middle: ColumnDef<Row>[] =
    kind === 'api'
      ? [
          { id: 'pid', header: 'PID', cell: ({ row }) => (row.original as ApiLog).pid || '_' },
          { id: 'services', header: 'Services', cell: ({ row }) => (row.original as ApiLog).service },
        ]
      : [{ id: 'description', header: 'Description', cell: ({ row }) => (row.original as ProductLog).description }];
  return [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'user', header: 'User ID', cell: ({ row }) => row.original.user_id },
    ...middle,
    {
      id: 'status',
      header: 'Status Code',
      cell: ({ row }) => <span className={row.original.status_code === 200 ? 'credit' : 'debit'}>{row.original.status_code}</span>,
    },
    { id: 'amount', header: 'Amount', cell: ({ row }) => formatRupees(row.original.amount_paise) },
  ];
}

export function PartnerLogsTable({ kind, filter }: { kind: LogKind; filter: PartnerFilter }) {
  const [page] = usePageParam();
  const q = usePartnerLogs(kind, filter, page);
  return (
    <>
      <QueryTable<Row>
        query={q}
        columns={columnsFor(kind, page)}
        pageSize={PAGE_SIZE}
        emptyText="No logs available"
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
