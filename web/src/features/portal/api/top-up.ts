import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { portalKeys } from './keys';

export type TopUp = {
  qr: { image_url: string | null; description: string };
  card: {
    name: string;
    description: string | null;
    logo_url: string | null;
    minimum_api_amount_paise: number | null;
    currency: string;
  } | null;
};

export function useTopUp() {
  return useQuery({ queryKey: portalKeys.topUp(), queryFn: () => api.get<TopUp>('/me/top-up', { auth: 'user' }) });
}
