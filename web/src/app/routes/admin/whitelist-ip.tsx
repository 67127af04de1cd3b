// /whitelist-ip (spec part 2, §2.8): the allow-list of every user, newest first; 'Add new' in a
// modal; the Filter panel (User Id, IP, Date; Apply and Clear) in the URL. Enforced by the
// gateway while the partner's Server Security is on (My Account, Settings).
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { FilterPanel } from '@/components/ui/filter-panel';
import { AddWhitelistModal } from '@/features/ip-access/components/add-whitelist-modal';
import { WhitelistTable } from '@/features/ip-access/components/whitelist-table';
import { useUrlFilter, type FilterField } from '@/lib/url-filter';

const KEYS = ['user_id', 'ip', 'date'] as const;
type Key = (typeof KEYS)[number];
const FIELDS: FilterField<Key>[] = [
  { key: 'user_id', label: 'User Id', numeric: true },
  { key: 'ip', label: 'IP' },
  { key: 'date', label: 'Date', type: 'date' },
];
const check = (v: Record<Key, string>) => (/^\d*$/.test(v.user_id.trim()) ? {} : { user_id: 'User ID contains only numeric values.' });

export default function WhitelistIpPage() {
  const filter = useUrlFilter(KEYS);
  const [adding, setAdding] = useState(false);
  const msg = useTimedMessage();
  return (
    <section className="page">
      <div className="page-head">
        <h1 className="page-title">Whitelist IP</h1>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          Add new
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <FilterPanel name="Filter whitelisted IPs" fields={FIELDS} value={filter.values} onApply={filter.apply} onClear={filter.clear} check={check} />
      <WhitelistTable filter={filter.values} />
      <AddWhitelistModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          msg.success('IP whitelisted successfully');
        }}
      />
    </section>
  );
}
