import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsKeys } from './keys';

/** A client's settings as the super admin sets them (client details: Settings, Documentation). */
export type ClientSettings = {
  test_api: boolean;
  batch_processing: boolean;
  is_active: boolean;
  restrict_all_apis: boolean;
  base_url: string | null;
  old_base_url: string | null;
  base_url_active: boolean;
  documentation_link: string | null;
};

export type ClientSettingsPatch = Partial<Omit<ClientSettings, 'old_base_url' | 'base_url' | 'documentation_link'>> & {
  base_url?: string;
  documentation_link?: string;
};

export const clientSettingsQueryOptions = (clientId: number) =>
  queryOptions({
    queryKey: settingsKeys.client(clientId),
    queryFn: () => api.get<ClientSettings>(`/superadmin/clients/${clientId}/settings`),
  });

export function useClientSettings(clientId: number) {
  return useQuery(clientSettingsQueryOptions(clientId));
}

export function useUpdateClientSettings(clientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: ClientSettingsPatch) => api.patch<ClientSettings>(`/superadmin/clients/${clientId}/settings`, patch),
    onSuccess: (s) => qc.setQueryData(settingsKeys.client(clientId), s),
  });
}

/**
 * An https URL: a domain with a dot, localhost or an IP, an optional port, path, query and
 * hash (spec part 2 §5), as the server checks it.
 */
export function isHttpsUrl(s: string, schemes: string[] = ['https:']): boolean {
  if (/\s/.test(s)) return false;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  if (!schemes.includes(u.protocol) || u.username || u.password) return false;
  const host = u.hostname;
  return host === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host);
}

export type DomainChanged = { job_id: string; subdomain: string; url: string };

/** Update Domain: the client's site moves; `provision_subdomain` activates the new name. */
export function useUpdateClientDomain(clientId: number) {
  return useMutation({
    mutationFn: (subdomain: string) => api.put<DomainChanged>(`/superadmin/clients/${clientId}/subdomain`, { subdomain }),
  });
}
