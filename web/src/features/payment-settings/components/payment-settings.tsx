// My Account, Payment (spec part 2, §2.7): two sub-tabs, the card payment provider and the
// Qr Code, the open one in the URL (`?sub=`).
import { Alert } from '@/components/ui/alert';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { usePaymentSettings } from '../api/payment-settings';
import { CardProvider } from './card-provider';
import { QrCodeForm } from './qr-code-form';

const SUB_TABS = [
  { key: 'card', label: 'Card Payment' },
  { key: 'qr', label: 'Qr Code' },
] as const;
type Sub = (typeof SUB_TABS)[number]['key'];
const KEYS = SUB_TABS.map((t) => t.key);

export function PaymentSettings() {
  const [sub, setSub] = useTabParam<Sub>(KEYS, 'card', 'sub');
  const q = usePaymentSettings();
  return (
    <Tabs tabs={[...SUB_TABS]} active={sub} onChange={setSub}>
      {q.isError && <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />}
      {!q.data && !q.isError && <p className="muted">Loading...</p>}
      {q.data && sub === 'card' && <CardProvider card={q.data.card} />}
      {q.data && sub === 'qr' && <QrCodeForm qr={q.data.qr} />}
    </Tabs>
  );
}
