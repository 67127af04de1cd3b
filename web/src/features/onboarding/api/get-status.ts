import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { onboardingKeys } from './keys';

/** The wizard's status checks (spec part 1 "Onboarding wizard"). */
export type PartnerStatus = {
  subdomain_done: boolean;
  branding_done: boolean;
  smtp_done: boolean;
  onboarding_step: number;
};

export const getPartnerStatus = () => api.get<PartnerStatus>('/partner/status');

export const partnerStatusQueryOptions = () =>
  queryOptions({ queryKey: onboardingKeys.status(), queryFn: getPartnerStatus });

export function usePartnerStatus(enabled = true) {
  return useQuery({ ...partnerStatusQueryOptions(), enabled });
}
