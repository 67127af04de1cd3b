// TruBank's queue (spec part 2, §2.6): each request with its requestId, the account summary
// (account name, number, bank) and two actions, View statement (the file's signed link) and
// Change Status; newest first, 50 a page.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate } from '@/lib/format';
import { PAGE_SIZE, useBankStatements } from '../api/get-bank-statements';
import { STATUS_LABELS, type BankStatementRequest } from '../api/types';

export function BankStatementsTable({ onChangeStatus }: { onChangeStatus: (r: BankStatementRequest) => void }) {
  const [page] = usePageParam();
  const q = useBankStatements(page);
  const columns: ColumnDef<BankStatementRequest>[] = [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'request', header: 'Request ID', cell: ({ row }) => <span className="mono">{row.original.request_id}</span> },
    { id: 'name', header: 'Account Name', cell: ({ row }) => <span className="wrap-anywhere">{row.original.account_name}</span> },
    { id: 'number', header: 'Account Number', cell: ({ row }) => <span className="mono">{row.original.account_number}</span> },
    { id: 'bank', header: 'Bank Name', cell: ({ row }) => <span className="wrap-anywhere">{row.original.bank_name}</span> },
    { id: 'status', header: 'Status', cell: ({ row }) => <span className={`request-status request-status-${row.original.status}`}>{STATUS_LABELS[row.original.status]}</span> },
    {
      id: 'action',
      header: 'Action',
      cell: ({ row }) => (
        <div className="table-actions">
          <a className="btn btn-secondary btn-sm" href={row.original.file_url} target="_blank" rel="noopener noreferrer">
            View statement
          </a>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => onChangeStatus(row.original)}>
            Change Status
          </button>
        </div>
      ),
    },
  ];
  return (
    <>
      <QueryTable
        query={q}
        columns={columns}
        emptyText="No manual bank account verification request found."
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
