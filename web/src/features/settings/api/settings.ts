import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';

/** Server Security, Landing page and the documentation link (My Account). */
export type PartnerSettings = { server_security: boolean; landing_page: boolean; documentation_link: string | null; charge_sandbox: boolean };

export const settingsQueryOptions = () => queryOptions({ queryKey: settingsKeys.mine(), queryFn: () => api.get<PartnerSettings>('/partner/settings') });
export function usePartnerSettings() {
  return useQuery(settingsQueryOptions());
}

/** https only: a domain, localhost or an IP, an optional port, path, query and hash (spec part 2, §5). */
const HTTPS_URL = /^https:\/\/(localhost|(\d{1,3}\.){3}\d{1,3}|([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})(:\d{1,5})?(\/[^\s?#]*)?(\?[^\s#]*)?(#\S*)?$/i;
export const documentationLinkSchema = z.object({ documentation_link: z.string().trim().regex(HTTPS_URL, 'Invalid URL') });

export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<PartnerSettings>) => api.patch<PartnerSettings>('/partner/settings', patch),
    onSuccess: (s) => qc.setQueryData(settingsKeys.mine(), s),
  });
}
