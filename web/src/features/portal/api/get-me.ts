import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { portalKeys } from './keys';
import type { Me, Usage } from './types';

export const getMe = () => api.get<Me>('/me', { auth: 'user' });

/** The signed-in user with both wallets and the low-balance flag. */
export function useMe(enabled = true) {
  return useQuery({ queryKey: portalKeys.me(), queryFn: getMe, enabled });
}

export const getUsage = () => api.get<Usage>('/me/usage', { auth: 'user' });

/** The last 30 days' calls and spend, per day and per API. */
export function useUsage() {
  return useQuery({ queryKey: portalKeys.usage(), queryFn: getUsage });
}
