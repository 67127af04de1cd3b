// IP Hits, Blocked IPs: created, updated, user id, IP, comments, status and Unblock.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate } from '@/lib/format';
import { useIpEntries } from '../api/get-ip-entries';
import type { IpFilter } from '../api/keys';
import type { IpEntry } from '../api/types';
import { UnblockButton } from './block-ip';

export function BlockedTable({ filter, onChanged }: { filter: IpFilter; onChanged: () => void }) {
  const [page] = usePageParam();
  const q = useIpEntries('blocked', filter, page);
  const columns: ColumnDef<IpEntry>[] = [
    { id: 'created', header: 'Created', cell: ({ row }) => formatDate(row.original.created_at, 16) },
    { id: 'updated', header: 'Updated', cell: ({ row }) => formatDate(row.original.updated_at, 16) },
    { id: 'user', header: 'User ID', cell: ({ row }) => row.original.user_id },
    { id: 'ip', header: 'IP', cell: ({ row }) => row.original.ip },
    { id: 'comments', header: 'Comments', cell: ({ row }) => <span className="wrap-anywhere">{row.original.comments}</span> },
    { id: 'status', header: 'Status', cell: () => <span className="debit">Blocked</span> },
    { id: 'action', header: 'Action', cell: ({ row }) => <UnblockButton blockedId={row.original.id} onDone={onChanged} /> },
  ];
  return (
    <>
      <QueryTable query={q} columns={columns} emptyText="No data" getRowId={(r) => String(r.id)} />
    </>
  );
}
