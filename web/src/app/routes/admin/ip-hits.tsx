// /ip-hits (spec part 2, §2.9): 'All IPs' (hits per user and IP, Active or Blocked, Block or
// Unblock) and 'Blocked IPs'; the filter panel needs a User ID. Filter, tab and page in the URL.
import { useQueryClient } from '@tanstack/react-query';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { BlockButton, UnblockButton } from '@/features/ip-access/components/block-ip';
import { BlockedTable } from '@/features/ip-access/components/blocked-table';
import { IpHitsTable } from '@/features/ip-hits/components/ip-hits-table';
import { useUrlFilter, type FilterField } from '@/lib/url-filter';
import { refreshIpLists } from '../../query-cache';

const TABS = [
  ['all', 'All IPs'],
  ['blocked', 'Blocked IPs'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = ['user_id', 'ip', 'date'] as const;
type Key = (typeof KEYS)[number];
const FIELDS: FilterField<Key>[] = [
  { key: 'user_id', label: 'User ID', numeric: true },
  { key: 'ip', label: 'IP' },
  { key: 'date', label: 'Date', type: 'date' },
];
const check = (v: Record<Key, string>) => {
  const u = v.user_id.trim();
  if (!u) return { user_id: 'User ID is required' };
  return /^\d+$/.test(u) ? {} : { user_id: 'User ID contains only numeric values.' };
};

export default function IpHitsPage() {
  const [tab, setTab] = useTabParam<TabKey>(['all', 'blocked'], 'all');
  const filter = useUrlFilter(KEYS);
  const qc = useQueryClient();
  // A block or unblock changes both tabs: the hit's status and the blocked list.
  const changed = () => refreshIpLists(qc);
  return (
    <section className="page">
      <h1 className="page-title">IP Hits</h1>
      <FilterPanel name="Filter IP hits" fields={FIELDS} value={filter.values} onApply={filter.apply} onClear={filter.clear} check={check} />
      <Tabs tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        {tab === 'all' ? (
          <IpHitsTable
            filter={filter.values}
            action={(h) =>
              h.blocked_id != null ? <UnblockButton blockedId={h.blocked_id} onDone={changed} /> : <BlockButton target={h} onDone={changed} />
            }
          />
        ) : (
          <BlockedTable filter={filter.values} onChanged={changed} />
        )}
      </Tabs>
    </section>
  );
}
