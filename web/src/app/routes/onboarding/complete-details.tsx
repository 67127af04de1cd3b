// /complete-details: the six-step onboarding wizard (spec part 1).
import { useCallback, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { SignupForm } from '@/features/auth/components/signup-form';
import { BrandingStep } from '@/features/onboarding/components/branding-step';
import { LinkStep } from '@/features/onboarding/components/link-step';
import { SmtpStep } from '@/features/onboarding/components/smtp-step';
import { SubdomainStep } from '@/features/onboarding/components/subdomain-step';
import { WizardFrame } from '@/features/onboarding/components/wizard-frame';
import { wizardStep } from '@/features/onboarding/api/wizard-step';
import { usePartnerMe } from '@/features/onboarding/api/get-me';
import { usePartnerStatus } from '@/features/onboarding/api/get-status';
import { choosePlan } from '@/features/onboarding/api/choose-plan';
import type { Billing } from '@/features/onboarding/api/choose-plan';
import { PlanCards } from '@/features/plan-cards/components/plan-cards';
import { errorMessage } from '@/lib/api-client';
import { getPartnerClaims } from '@/lib/auth';
import { refreshPartnerSession } from '../../query-cache';

export default function CompleteDetailsPage() {
  const claims = getPartnerClaims();
  const signedIn = !!claims;
  const status = usePartnerStatus(signedIn);
  const me = usePartnerMe(signedIn);
  const queryClient = useQueryClient();
  // Where the partner moved to in this visit; until then the status checks decide.
  const [reached, setReached] = useState<number | null>(null);

  const goTo = useCallback(
    (next: number) => {
      setReached(next);
      refreshPartnerSession(queryClient);
    },
    [queryClient],
  );

  if (signedIn && status.isPending && reached === null) return <Spinner />;
  const step = reached ?? wizardStep(signedIn, status.data);
  const userName = me.data?.user_name ?? claims?.user_name ?? '';

  return (
    <WizardFrame step={step}>
      {step === 1 && <SignupForm />}
      {step === 2 && <PricingStep onDone={() => goTo(3)} />}
      {step === 3 && <SubdomainStep userName={userName} onDone={() => goTo(4)} />}
      {step === 4 && (me.data ? <BrandingStep userName={userName} onDone={() => goTo(5)} /> : <Spinner />)}
      {step === 5 && <SmtpStep onDone={() => goTo(6)} />}
      {step === 6 && <LinkStep userDashboardUrl={me.data?.user_dashboard_url} />}
    </WizardFrame>
  );
}

function PricingStep({ onDone }: { onDone: () => void }) {
  const msg = useTimedMessage();
  const mutation = useMutation({
    mutationFn: ({ plan, billing }: { plan: string; billing: Billing }) => choosePlan(plan, billing),
  });
  return (
    <div className="pricing-step">
      <Alert message={msg.message} onClose={msg.clear} />
      <PlanCards
        action={(plan, billing) => (
          <button
            type="button"
            className="btn btn-primary btn-block"
            disabled={mutation.isPending}
            onClick={() =>
              mutation.mutate({ plan: plan.id, billing }, { onSuccess: onDone, onError: (e) => msg.error(errorMessage(e)) })
            }
          >
            {mutation.isPending && mutation.variables?.plan === plan.id ? 'Wait...' : 'Buy now'}
          </button>
        )}
      />
    </div>
  );
}
