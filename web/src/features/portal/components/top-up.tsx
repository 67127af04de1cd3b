// Top-up: how to pay the partner (no payment is taken here: the partner credits the wallet
// once paid), by its QR code with its instruction, and by its card provider when it has one.
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { useTopUp } from '../api/top-up';
import type { Me, PublicPortal } from '../api/types';
import { ContactDetails } from './portal-landing';

export function TopUp({ me, site }: { me: Me | undefined; site: PublicPortal }) {
  const q = useTopUp();
  if (q.isPending) return <Spinner />;
  if (q.isError) return <p role="alert">{errorMessage(q.error)}</p>;
  const { qr, card } = q.data;
  return (
    <div className="top-up">
      {me && (
        <p className="balance-line">
          Your API wallet holds <strong>{formatRupees(me.wallets.api.balance_paise)}</strong>; your product wallet{' '}
          <strong>{formatRupees(me.wallets.product.balance_paise)}</strong>.
        </p>
      )}
      <div className="top-up-grid">
        <section className="panel" aria-labelledby="qr-title">
          <h2 className="panel-title" id="qr-title">
            Pay by QR code
          </h2>
          {/* The instruction is how to pay by the code: without a code it would ask to scan nothing. */}
          {qr.image_url ? (
            <>
              <img src={qr.image_url} alt="QR code for payment" className="qr-image" />
              <p className="pre-line" data-testid="qr-description">
                {qr.description}
              </p>
            </>
          ) : (
            <p className="muted">No QR code has been set up yet. Contact your provider below to pay.</p>
          )}
        </section>
        {card && (
          <section className="panel" aria-labelledby="card-title">
            <h2 className="panel-title" id="card-title">
              Pay by card
            </h2>
            <div className="card-provider">
              {card.logo_url && <img src={card.logo_url} alt={`${card.name} logo`} className="card-logo" />}
              <strong>{card.name}</strong>
            </div>
            {card.description && <p className="pre-line">{card.description}</p>}
            {card.minimum_api_amount_paise !== null && (
              <p>Minimum top-up: {formatRupees(card.minimum_api_amount_paise)}</p>
            )}
            <p className="muted">Card payments are made with your provider; your wallet is credited once it is paid.</p>
          </section>
        )}
      </div>
      <section className="panel" aria-labelledby="topup-contact">
        <h2 className="panel-title" id="topup-contact">
          After paying
        </h2>
        <p>Send the payment reference to your provider: your wallet is credited once the payment is confirmed.</p>
        <ContactDetails contact={site.contact} />
      </section>
    </div>
  );
}
