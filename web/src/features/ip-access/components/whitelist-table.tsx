// Whitelist IP: updated at, user id, IP and comments, newest first (spec part 2, §2.8); and
// User Detail's Whitelist IP's tab: updated at, IP, comments.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate } from '@/lib/format';
import { useIpEntries, useUserWhitelist } from '../api/get-ip-entries';
import type { IpFilter } from '../api/keys';
import type { IpEntry } from '../api/types';

const PAGE_SIZE = 50;

const columns = (withUser: boolean, page: number): ColumnDef<IpEntry>[] => [
  { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
  { id: 'updated', header: 'Updated at', cell: ({ row }) => formatDate(row.original.updated_at) },
  ...(withUser ? ([{ id: 'user', header: 'User ID', cell: ({ row }) => row.original.user_id }] satisfies ColumnDef<IpEntry>[]) : []),
  { id: 'ip', header: 'IP', cell: ({ row }) => row.original.ip },
  { id: 'comments', header: 'Comments', cell: ({ row }) => <span className="wrap-anywhere">{row.original.comments}</span> },
];

export function WhitelistTable({ filter }: { filter: IpFilter }) {
  const [page] = usePageParam();
  const q = useIpEntries('whitelist', filter, page);
  return (
    <>
      <QueryTable
        query={q}
        columns={columns(true, page)}
        emptyText="No whitelisted IPs found"
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}

export function UserWhitelistTable({ userId }: { userId: number }) {
  const [page] = usePageParam();
  const q = useUserWhitelist(userId, page);
  return (
    <>
      <QueryTable
        query={q}
        columns={columns(false, page)}
        emptyText="No whitelisted IPs found"
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
