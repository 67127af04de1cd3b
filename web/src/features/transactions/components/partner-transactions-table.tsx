// The partner-wide transaction lists, 50 per page, 'N of M', newest first. User Transactions
// shows the users' side of each row (what the user paid, the user's balance after); My
// Transactions the partner's own (what the partner paid, the partner's balance after).
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate, formatRupees } from '@/lib/format';
import type { PartnerFilter } from '@/lib/partner-filter';
import { usePartnerTransactions } from '../api/get-partner-transactions';
import type { Transaction, TransactionKind } from '../api/get-user-transactions';

const PAGE_SIZE = 50;
export type MoneySide = 'user' | 'partner';

const STATUS_TEXT: Record<string, string> = { success: 'Success', refunded: 'Refunded', pending: 'Pending', failed: 'Failed' };
const isCredit = (t: Transaction) => t.amount_type === 'credit';

function columnsFor(kind: TransactionKind, side: MoneySide, page: number): ColumnDef<Transaction>[] {
  const amount = (t: Transaction) => (side === 'user' ? t.user_amount_paise : t.amount_paise);
  const balance = (t: Transaction) => (side === 'user' ? t.remaining_paise : t.partner_remaining_paise);
  const cols: ColumnDef<Transaction>[] = [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'user', header: 'User ID', cell: ({ row }) => row.original.user_id },
    { id: 'email', header: 'Email', cell: ({ row }) => row.original.email },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid || '_' },
    { id: 'services', header: 'Services', cell: ({ row }) => row.original.service },
  ];
  if (kind === 'api') {
    cols.push({
      id: 'status',
      header: 'Status',
      cell: ({ row }) => {
        const t = row.original;
        const text = `${t.status_code ?? ''} ${STATUS_TEXT[t.status] ?? t.status}`.trim();
        return <span className={t.status === 'success' ? 'credit' : 'debit'}>{text}</span>;
      },
    });
  }
  cols.push(
    { id: 'amount', header: 'Amount', cell: ({ row }) => <span className={isCredit(row.original) ? 'credit' : 'debit'}>{formatRupees(amount(row.original))}</span> },
    { id: 'balance', header: 'Balance', cell: ({ row }) => (balance(row.original) == null ? 'NA' : formatRupees(balance(row.original))) },
    {
      id: 'type',
      header: 'Type',
      cell: ({ row }) => <span className={isCredit(row.original) ? 'credit' : 'debit'}>{isCredit(row.original) ? 'Credit' : 'Debit'}</span>,
    },
  );
  return cols;
}

export function PartnerTransactionsTable({ kind, side, filter }: { kind: TransactionKind; side: MoneySide; filter: PartnerFilter }) {
  const [page] = usePageParam();
  const q = usePartnerTransactions(kind, filter, page);
  return (
    <>
      <QueryTable
        query={q}
        columns={columnsFor(kind, side, page)}
        pageSize={PAGE_SIZE}
        emptyText="No transactions available"
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
