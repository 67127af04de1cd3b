// User Detail, API Transactions and Product Transactions: #, Date, PID, Services, Amount,
// Balance, Type; 50 per page, 'x of y pages'; credit green, debit red.
import type { ColumnDef } from '@tanstack/react-table';
import { Alert } from '@/components/ui/alert';
import { DataTable, usePageParam } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatRupees } from '@/lib/format';
import { useUserTransactions, type Transaction, type TransactionKind } from '../api/get-user-transactions';

const PAGE_SIZE = 50;
const isCredit = (t: Transaction) => t.amount_type.toLowerCase() === 'credit';

function columnsFor(page: number): ColumnDef<Transaction>[] {
  return [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid || '_' },
    { id: 'services', header: 'Services', cell: ({ row }) => row.original.service },
    {
      id: 'amount',
      header: 'Amount',
      cell: ({ row }) => <span className={isCredit(row.original) ? 'credit' : 'debit'}>{formatRupees(row.original.user_amount_paise)}</span>,
    },
    {
      id: 'balance',
      header: 'Balance',
      cell: ({ row }) => (row.original.remaining_paise == null ? 'NA' : formatRupees(row.original.remaining_paise)),
    },
    {
      id: 'type',
      header: 'Type',
      cell: ({ row }) => (
        <span className={isCredit(row.original) ? 'credit' : 'debit'}>{isCredit(row.original) ? 'Credit' : 'Debit'}</span>
      ),
    },
  ];
}

export function UserTransactionsTable({ userId, kind }: { userId: number; kind: TransactionKind }) {
  const [page] = usePageParam();
  const q = useUserTransactions(userId, kind, page);
  return (
    <>
      {q.isError && <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />}
      <DataTable
        columns={columnsFor(page)}
        data={q.data?.items ?? []}
        pageCount={q.data?.pages ?? 1}
        pageSize={PAGE_SIZE}
        isLoading={q.isLoading}
        emptyText="No transactions available"
        pagingLabel={(p, n) => `${p} of ${n} pages`}
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
