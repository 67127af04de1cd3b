import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { onboardingKeys } from './keys';

export const SUBDOMAIN_AVAILABLE = 'This username is available.';
export const SUBDOMAIN_TAKEN = 'This username is not available.';

export const subdomainSchema = z.object({
  // Lower-cased on save (spec part 1, step 3).
  subdomain: z
    .string()
    .trim()
    .min(1, 'Website name is required')
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'Only letters, numbers and hyphens are allowed')),
});

export function useSubdomainAvailability(name: string) {
  return useQuery({
    queryKey: onboardingKeys.subdomain(name),
    queryFn: () => api.get<{ available: boolean }>(`/subdomains/${encodeURIComponent(name)}`),
    enabled: subdomainSchema.safeParse({ subdomain: name }).success,
    staleTime: 30_000,
  });
}

/** Claims the sub-domain; provisioning runs as a job whose id comes back. */
export const claimSubdomain = (subdomain: string) =>
  api.put<{ job_id: string; token?: string }>('/partner/subdomain', { subdomain });
