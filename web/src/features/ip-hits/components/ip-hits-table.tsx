// IP Hits, All IPs: created, updated, user id, IP, hits, status (Active or Blocked) and the
// action the route supplies (Block or Unblock); User Detail's IP Details: created at, updated
// at, IP, hits. Dates show 16 characters, as the spec's IP lists do.
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatCount, formatDate } from '@/lib/format';
import { useIpHits, useUserIpHits, type IpHit } from '../api/get-ip-hits';
import type { HitsFilter } from '../api/keys';

const key = (h: IpHit) => `${h.user_id}-${h.ip}`;

export function IpHitsTable({ filter, action }: { filter: HitsFilter; action: (hit: IpHit) => ReactNode }) {
  const [page] = usePageParam();
  const q = useIpHits(filter, page);
  const columns: ColumnDef<IpHit>[] = [
    { id: 'created', header: 'Created', cell: ({ row }) => formatDate(row.original.first_seen, 16) },
    { id: 'updated', header: 'Updated', cell: ({ row }) => formatDate(row.original.last_seen, 16) },
    { id: 'user', header: 'User ID', cell: ({ row }) => row.original.user_id },
    { id: 'ip', header: 'IP', cell: ({ row }) => row.original.ip },
    { id: 'hits', header: 'Hits', cell: ({ row }) => formatCount(row.original.hits) },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (row.original.status === 'blocked' ? <span className="debit">Blocked</span> : <span className="credit">Active</span>),
    },
    { id: 'action', header: 'Action', cell: ({ row }) => action(row.original) },
  ];
  return (
    <>
      <QueryTable
        query={q}
        columns={columns}
        pageSize={q.data?.per_page}
        emptyText="No data"
        getRowId={key}
      />
    </>
  );
}

export function UserIpHitsTable({ userId }: { userId: number }) {
  const [page] = usePageParam();
  const q = useUserIpHits(userId, page);
  const columns: ColumnDef<IpHit>[] = [
    { id: 'created', header: 'Created at', cell: ({ row }) => formatDate(row.original.first_seen, 16) },
    { id: 'updated', header: 'Updated at', cell: ({ row }) => formatDate(row.original.last_seen, 16) },
    { id: 'ip', header: 'IP', cell: ({ row }) => row.original.ip },
    { id: 'hits', header: 'Hits', cell: ({ row }) => formatCount(row.original.hits) },
  ];
  return (
    <>
      <QueryTable query={q} columns={columns} emptyText="No data" getRowId={key} />
    </>
  );
}
