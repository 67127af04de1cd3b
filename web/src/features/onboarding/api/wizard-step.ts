import type { PartnerStatus } from './get-status';

export const LAST_STEP = 6;

/** The answer of the status checks (GET /partner/status). */
export type OnboardingStatus = PartnerStatus;

/**
 * The step the wizard opens on (spec part 1 "Onboarding wizard"): no session
 * means step 1; no sub-domain yet means pricing (step 2), or the sub-domain
 * step once a plan was chosen; then status checks 1-3 decide steps 3, 4 and 5;
 * all passing shows the link page.
 */
export function wizardStep(signedIn: boolean, status: OnboardingStatus | undefined): number {
  if (!signedIn || !status) return 1;
  if (!status.subdomain_done) return status.onboarding_step >= 3 ? 3 : 2;
  if (!status.branding_done) return 4;
  if (!status.smtp_done && status.onboarding_step < LAST_STEP) return 5;
  return LAST_STEP;
}
