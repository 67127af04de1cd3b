// User Detail, API Transactions and Product Transactions: the wallet's credit/debit ledger.
// #, Date, PID, Services, Amount, Balance, Type (spec part 1) and Status, so a failed call
// reads as refunded beside the refund that put its money back; 50 per page, 'x of y pages';
// credit green, debit red.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate, formatRupees } from '@/lib/format';
import type { UserRef } from '@/lib/user-ref';
import { useUserLedger, type LedgerRow } from '../api/get-user-ledger';
import type { TransactionKind } from '../api/get-user-transactions';

const PAGE_SIZE = 50;

const STATUS_TEXT: Record<string, string> = { success: 'Success', refunded: 'Refunded', pending: 'Pending', failed: 'Failed' };

/** What the Services column says: the API or product, or who moved the money by hand. */
export function ledgerService(r: LedgerRow): string {
  if (r.service) return r.service;
  if (r.reason === 'manual') return r.type === 'credit' ? 'Manual credit' : 'Manual debit';
  return r.reference ?? '_';
}

/** The Status column: the call's state on its debit, 'Refund' on the credit that reversed it. */
export function ledgerStatus(r: LedgerRow): string {
  if (r.reason === 'refund') return 'Refund';
  return r.status ? (STATUS_TEXT[r.status] ?? r.status) : '_';
}

function columnsFor(page: number): ColumnDef<LedgerRow>[] {
  const tone = (r: LedgerRow) => (r.type === 'credit' ? 'credit' : 'debit');
  return [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid || '_' },
    { id: 'services', header: 'Services', cell: ({ row }) => ledgerService(row.original) },
    { id: 'amount', header: 'Amount', cell: ({ row }) => <span className={tone(row.original)}>{formatRupees(row.original.amount_paise)}</span> },
    { id: 'balance', header: 'Balance', cell: ({ row }) => formatRupees(row.original.balance_after_paise) },
    {
      id: 'type',
      header: 'Type',
      cell: ({ row }) => <span className={tone(row.original)}>{row.original.type === 'credit' ? 'Credit' : 'Debit'}</span>,
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => {
        const text = ledgerStatus(row.original);
        const bad = row.original.status === 'refunded' || row.original.status === 'failed';
        return <span className={bad && row.original.reason !== 'refund' ? 'status-bad' : undefined}>{text}</span>;
      },
    },
  ];
}

/** `clientId` when the super admin looks at a client's user. */
export function UserTransactionsTable({ userId, clientId, kind }: UserRef & { kind: TransactionKind }) {
  const [page] = usePageParam();
  const q = useUserLedger({ userId, clientId }, kind, page);
  return (
    <>
      <QueryTable
        query={q}
        columns={columnsFor(page)}
        pageSize={PAGE_SIZE}
        emptyText="No transactions available"
        pagingLabel={(p, n) => `${p} of ${n} pages`}
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
