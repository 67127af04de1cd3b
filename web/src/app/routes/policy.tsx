// /privacy-policy, /terms-and-conditions, /cancellation-policy: the landing footer's policies,
// in the landing page's header and footer (the partner's own text on its site where it wrote one).
import { SiteFooter, SiteHeader } from '@/features/landing/components/landing-sections';
import type { PolicyKind } from '@/features/policies/api/get-policy';
import { PolicyText } from '@/features/policies/components/policy-text';

export function PolicyPage({ kind }: { kind: PolicyKind }) {
  return (
    <div className="landing">
      <SiteHeader />
      <main className="section policy-page">
        <PolicyText kind={kind} />
      </main>
      <SiteFooter />
    </div>
  );
}

export const PrivacyPolicy = () => <PolicyPage kind="privacy" />;
export const TermsAndConditions = () => <PolicyPage kind="terms" />;
export const CancellationPolicy = () => <PolicyPage kind="cancellation" />;
