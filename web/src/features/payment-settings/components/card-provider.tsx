// Payment, card provider: what is saved (the keys masked), and the modal that edits it.
import { useState, type ReactNode } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
import { formatRupees } from '@/lib/format';
import type { CardProvider as Card } from '../api/payment-settings';
import { CardProviderForm } from './card-provider-form';

export function CardProvider({ card }: { card: Card }) {
  const [open, setOpen] = useState(false);
  const msg = useTimedMessage();
  const rows: [string, ReactNode][] = [
    ['Key Id', <code key="id">{card.key_id}</code>],
    ['Key Secret', <code key="secret">{card.key_secret}</code>],
    ['Name', card.name],
    ['Description', card.description],
    ['Minimum API amount', formatRupees(card.minimum_api_amount_paise)],
    ['Minimum product amount', formatRupees(card.minimum_product_amount_paise)],
    [
      'Theme colour',
      <span key="colour" className="swatch-text">
        <span className="swatch" style={{ background: card.theme_color }} aria-hidden="true" /> {card.theme_color}
      </span>,
    ],
    ['Currency', card.currency],
  ];
  return (
    <div className="form">
      <Alert message={msg.message} onClose={msg.clear} />
      {card.configured ? (
        <div className="card-provider">
          {card.logo_url && <img src={card.logo_url} alt={`${card.name} logo`} className="card-provider-logo" />}
          <dl className="details">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : (
        <p className="muted">No card payment provider yet: your users pay you by the QR code.</p>
      )}
      <div className="button-row">
        <button type="button" className="btn btn-primary" onClick={() => setOpen(true)}>
          {card.configured ? 'Edit' : 'Add new'}
        </button>
      </div>
      <Modal open={open} onClose={() => setOpen(false)} title="Card payment provider" size="lg">
        <CardProviderForm
          card={card}
          onSaved={() => {
            setOpen(false);
            msg.success('Payment settings saved');
          }}
          onError={(text) => {
            setOpen(false);
            msg.error(text);
          }}
        />
      </Modal>
    </div>
  );
}
