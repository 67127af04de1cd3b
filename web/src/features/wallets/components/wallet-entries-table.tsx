// Wallet transactions: date, type, amount, balance (and the wallet, and the user id on the
// super admin's global list). Credits green, debits red.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate, formatRupees } from '@/lib/format';
import { useAllWalletTransactions } from '../api/get-wallet-transactions';
import { useMyWalletEntries } from '../api/get-wallet-entries';
import { useOwnerWalletEntries } from '../api/get-owner-wallet-entries';
import { walletLabels, type WalletEntry, type WalletOwner } from '../api/types';

const typeText = (t: string) => (t === 'credit' ? 'Credit' : 'Debit');

function columns(showUser: boolean): ColumnDef<WalletEntry>[] {
  const cols: ColumnDef<WalletEntry>[] = [
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    {
      id: 'type',
      header: 'Type',
      cell: ({ row }) => <span className={row.original.type === 'credit' ? 'credit' : 'debit'}>{typeText(row.original.type)}</span>,
    },
    { id: 'amount', header: 'Amount', cell: ({ row }) => formatRupees(row.original.amount_paise) },
    {
      id: 'balance',
      header: 'Balance',
      cell: ({ row }) => (row.original.balance_after_paise == null ? 'NA' : formatRupees(row.original.balance_after_paise)),
    },
    { id: 'wallet', header: 'Wallet', cell: ({ row }) => walletLabels[row.original.kind] ?? row.original.kind },
  ];
  if (showUser) cols.push({ id: 'user', header: 'User Id', cell: ({ row }) => row.original.partner_id });
  return cols;
}

const plainColumns = columns(false);
const userColumns = columns(true);

type Query = ReturnType<typeof useMyWalletEntries>;

function EntriesTable({ query, showUser }: { query: Query; showUser?: boolean }) {
  return (
    <>
      <QueryTable
        query={query}
        columns={showUser ? userColumns : plainColumns}
        emptyText="No transactions available"
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}

/** The partner's own wallet transactions (My Transactions). */
export function MyWalletEntries() {
  const [page] = usePageParam();
  return <EntriesTable query={useMyWalletEntries(page)} />;
}

/** One client's (super admin) or end user's wallet transactions. */
export function OwnerWalletEntries({ owner }: { owner: WalletOwner }) {
  const [page] = usePageParam();
  return <EntriesTable query={useOwnerWalletEntries(owner, page)} />;
}

/** Every partner's wallet transactions with the partner's user id (super admin). */
export function AllWalletTransactions() {
  const [page] = usePageParam();
  return <EntriesTable query={useAllWalletTransactions(page)} showUser />;
}
