// /my-account (spec part 2, §2.7): the partner's own settings, one tab each, the open tab in
// the URL; and Profile (issue 23: the spec has no place for the partner's own name, e-mail and
// phone, so they get a tab here).
import { useQueryClient } from '@tanstack/react-query';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { ContactDetailsForm } from '@/features/account/components/contact-details-form';
import { ProfileForm } from '@/features/account/components/profile-form';
import { usePartnerMe } from '@/features/onboarding/api/get-me';
import { BrandingStep } from '@/features/onboarding/components/branding-step';
import { SmtpSettings } from '@/features/onboarding/components/smtp-settings';
import { DocumentationLinkForm } from '@/features/settings/components/documentation-link-form';
import { PaymentSettings } from '@/features/payment-settings/components/payment-settings';
import { SiteSettings } from '@/features/settings/components/site-settings';
import { SignupCustomizationForm } from '@/features/signup-customization/components/signup-customization-form';
import { refreshPartnerSession } from '../../query-cache';

const TABS = [
  ['basic', 'Basic'],
  ['theme', 'Theme'],
  ['smtp', 'SMTP'],
  ['signup', 'Signup Customization'],
  ['payment', 'Payment'],
  ['settings', 'Settings'],
  ['contact', 'Contact details'],
  ['profile', 'Profile'],
] as const;
type TabKey = (typeof TABS)[number][0];
const KEYS = TABS.map(([k]) => k);

/** Theme: the wizard's branding form, started from what is saved; the shell follows a save. */
function Theme() {
  const me = usePartnerMe();
  const qc = useQueryClient();
  if (!me.data) return <p className="muted">Loading...</p>;
  const m = me.data;
  return (
    <BrandingStep
      key={`${m.title}|${m.logo_key}|${m.favicon_key}|${JSON.stringify(m.theme)}`}
      userName={m.user_name}
      submitLabel="Save"
      saved={{
        title: m.title ?? '',
        description: m.description ?? '',
        primary: m.theme?.primary ?? '',
        secondary: m.theme?.secondary ?? '',
        tertiary: m.theme?.tertiary ?? '',
        logo_key: m.logo_key ?? undefined,
        favicon_key: m.favicon_key ?? undefined,
        logo_url: m.logo_url,
        favicon_url: m.favicon_url,
      }}
      onDone={() => refreshPartnerSession(qc)}
    />
  );
}

export default function MyAccountPage() {
  const qc = useQueryClient();
  const [tab, setTab] = useTabParam<TabKey>(KEYS, 'basic', 'tab', ['sub']);
  const title = TABS.find(([k]) => k === tab)?.[1] ?? '';
  return (
    <section className="page">
      <h1 className="page-title">My Account</h1>
      <Tabs tabs={TABS.map(([key, label]) => ({ key, label }))} active={tab} onChange={setTab}>
        <h2 className="tab-title">{title}</h2>
        {tab === 'basic' && <DocumentationLinkForm />}
        {tab === 'theme' && <Theme />}
        {tab === 'smtp' && <SmtpSettings />}
        {tab === 'signup' && <SignupCustomizationForm />}
        {tab === 'payment' && <PaymentSettings />}
        {tab === 'settings' && <SiteSettings />}
        {tab === 'contact' && <ContactDetailsForm />}
        {/* The shell and the wizard read the partner's name and e-mail from its session data. */}
        {tab === 'profile' && <ProfileForm onSaved={() => refreshPartnerSession(qc)} />}
      </Tabs>
    </section>
  );
}
