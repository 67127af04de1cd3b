// Plan cards with the monthly/yearly toggle, shared by the landing page, the
// wizard's pricing step and /superadmin/planDetails.
import { useState, type ReactNode } from 'react';
import { formatRupees } from '@/lib/format';
import { errorMessage } from '@/lib/api-client';
import { Spinner } from '@/components/ui/spinner';
import { usePlanCards, type Billing, type PlanCard } from '../api/get-plan-cards';

export function BillingToggle({ value, onChange }: { value: Billing; onChange: (b: Billing) => void }) {
  return (
    <div className="billing-toggle" role="group" aria-label="Billing">
      <button type="button" className={value === 'monthly' ? 'active' : ''} aria-pressed={value === 'monthly'} onClick={() => onChange('monthly')}>
        Pay monthly
      </button>
      <button type="button" className={value === 'yearly' ? 'active' : ''} aria-pressed={value === 'yearly'} onClick={() => onChange('yearly')}>
        Pay yearly <span className="save-badge">Save 10%</span>
      </button>
    </div>
  );
}

type PlanCardsProps = {
  /** The call to action of one card, e.g. Buy now, Activated or Upgrade. */
  action: (plan: PlanCard, billing: Billing) => ReactNode;
};

export function PlanCards({ action }: PlanCardsProps) {
  const plans = usePlanCards();
  const [billing, setBilling] = useState<Billing>('monthly');

  return (
    <div className="plans">
      <div className="center">
        <BillingToggle value={billing} onChange={setBilling} />
      </div>
      {plans.isPending && <Spinner />}
      {plans.isError && <p className="field-error center">{errorMessage(plans.error)}</p>}
      <div className="plan-grid">
        {plans.data?.map((plan) => (
          <article
            key={plan.id}
            className="plan-card"
            style={plan.colour ? ({ '--plan-colour': plan.colour } as React.CSSProperties) : undefined}
          >
            <h3>{plan.heading}</h3>
            <div className="plan-price">
              {formatRupees(billing === 'monthly' ? plan.monthly_price_paise : plan.yearly_price_paise, { whole: true })}
              <small> /month</small>
            </div>
            <ul className="plan-features">
              {plan.features.map((f) => (
                <li key={f.text} className={f.highlighted ? 'highlighted' : undefined}>
                  {f.text}
                </li>
              ))}
            </ul>
            {action(plan, billing)}
          </article>
        ))}
      </div>
    </div>
  );
}
