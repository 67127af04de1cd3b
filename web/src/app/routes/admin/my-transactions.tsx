// /my-transactions (spec part 2, §2.3): the Wallet transactions tab is built; API and
// Product transactions show their title for now.
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { MyWalletEntries } from '@/features/wallets/components/wallet-entries-table';

const TABS = [
  ['api', 'API transactions'],
  ['product', 'Product transactions'],
  ['wallet', 'Wallet transactions'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

export default function MyTransactionsPage() {
  const [tab, setTab] = useTabParam<TabKey>(KEYS, 'api');
  const title = TABS.find(([k]) => k === tab)?.[1] ?? '';
  return (
    <section className="page">
      <h1 className="page-title">My Transactions</h1>
      <Tabs tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        <h2 className="tab-title">{title}</h2>
        {tab === 'wallet' && <MyWalletEntries />}
      </Tabs>
    </section>
  );
}
