import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { portalKeys } from './keys';

/** An API the user may call, as the gateway decides it (GET /me/apis). */
export type Offer = {
  service: string;
  name: string;
  category: string;
  /** What this user pays per successful call. */
  price_paise: number;
  required_fields: string[];
  /** On the sandbox list: the Try-it console and sandbox keys may call it. */
  sandbox: boolean;
  /** The catalogue's description. */
  description: string;
  /** The catalogue's sample answer: what a sandbox call answers. */
  sample_response: unknown;
};

export const getApis = () => api.get<Offer[]>('/me/apis', { auth: 'user' });

export function useApis() {
  return useQuery({ queryKey: portalKeys.apis(), queryFn: getApis, staleTime: 60_000 });
}
