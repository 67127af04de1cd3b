import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Theme } from '@/lib/theme';
import { onboardingKeys } from './keys';

export type PartnerMe = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  user_name: string;
  subdomain: string | null;
  /** The wizard step the partner must see next, 2..6; 6 = onboarding done. */
  onboarding_step: number;
  plan: string | null;
  title: string | null;
  description: string | null;
  logo_key: string | null;
  favicon_key: string | null;
  logo_url: string | null;
  favicon_url: string | null;
  theme: Theme | null;
  user_dashboard_url: string | null;
};

export const partnerMeQueryOptions = () =>
  queryOptions({
    queryKey: onboardingKeys.me(),
    queryFn: () => api.get<PartnerMe>('/partner/me'),
    staleTime: 60_000,
  });

export function usePartnerMe(enabled = true) {
  return useQuery({ ...partnerMeQueryOptions(), enabled });
}
