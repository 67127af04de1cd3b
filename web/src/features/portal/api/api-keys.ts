import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { istDay } from '@/lib/format';
import { portalKeys } from './keys';

export type KeyMode = 'live' | 'sandbox';

export type ApiKey = {
  id: number;
  /** Empty for keys made before keys had names. */
  name: string;
  prefix: string;
  mode: KeyMode;
  status: 'active' | 'revoked' | 'expired';
  created_at: string;
  last_used_at: string | null;
  /** Chosen at creation, or set by a roll: the gateway refuses the key from then on. */
  expires_at: string | null;
  /** Addresses and CIDR networks the key may be used from; empty: anywhere. */
  allowed_ips: string[];
  /** Services the key may call; empty: every API the user may call. */
  allowed_services: string[];
  /** The key's metered calls over the last 30 IST days. */
  usage: { calls: number; spend_paise: number };
};

/** The clear key is in this answer only. */
export type CreatedKey = { id: number; key: string; prefix: string; mode: KeyMode };

export const listKeys = () => api.get<ApiKey[]>('/me/api-keys', { auth: 'user' });

export function useApiKeys() {
  return useQuery({ queryKey: portalKeys.apiKeys(), queryFn: listKeys });
}

function useKeyMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: portalKeys.apiKeys() }) });
}

/** The entries of a list typed one per line or separated by commas or spaces. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(s: string): boolean {
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  try {
    new URL(`http://[${s}]/`);
    return true;
  } catch {
    return false;
  }
}

/** An IPv4 or IPv6 address, or a CIDR network of one (`203.0.113.0/24`), as the API takes them. */
export function isIpOrCidr(s: string): boolean {
  const [addr, mask, ...rest] = s.split('/');
  if (rest.length > 0) return false;
  const v4 = IPV4.test(addr);
  if (!v4 && !isIpv6(addr)) return false;
  if (mask === undefined) return true;
  return /^\d{1,3}$/.test(mask) && Number(mask) <= (v4 ? 32 : 128);
}

/** The API's bounds of a key's lists and name. */
export const MAX_KEY_IPS = 50;
export const MAX_KEY_NAME = 100;

/** A key's name and lists, as the create and edit forms hold them (the IPs as typed). */
export const keyLimitsSchema = z.object({
  name: z.string().trim().min(1, 'Give the key a name').max(MAX_KEY_NAME, `A name can be at most ${MAX_KEY_NAME} characters`),
  allowed_ips: z
    .string()
    .transform(splitList)
    .pipe(
      z
        .array(z.string().refine(isIpOrCidr, (s) => ({ message: `${s} is not an IP address or a CIDR network (such as 203.0.113.0/24)` })))
        .max(MAX_KEY_IPS, `A key can list at most ${MAX_KEY_IPS} addresses or networks`),
    ),
  allowed_services: z.array(z.string()),
});

/**
 * The create form: the mode, the name and lists, and an optional last day (IST) the key works,
 * sent as the end of that day on India's clock.
 */
export const createKeySchema = keyLimitsSchema
  .extend({
    mode: z.enum(['live', 'sandbox'], { errorMap: () => ({ message: 'Choose live or sandbox' }) }),
    expires_on: z
      .string()
      .refine((d) => d === '' || /^\d{4}-\d{2}-\d{2}$/.test(d), 'Pick a date')
      .refine((d) => d === '' || d >= istDay(0), 'The last day cannot be in the past')
      .refine((d) => d === '' || d <= istDay(5 * 365), 'The last day can be at most 5 years ahead'),
  })
  .transform(({ expires_on, ...rest }) => ({ ...rest, expires_at: expires_on === '' ? undefined : `${expires_on}T23:59:59+05:30` }));

export type NewKeyInput = z.infer<typeof createKeySchema>;
export type KeyLimits = z.infer<typeof keyLimitsSchema>;

export function useCreateKey() {
  return useKeyMutation((input: NewKeyInput) => api.post<CreatedKey>('/me/api-keys', input, { auth: 'user' }));
}

/** Changes a key's name and lists; every api process enforces them within a second. */
export function useUpdateKey() {
  return useKeyMutation(({ id, ...limits }: KeyLimits & { id: number }) => api.patch<ApiKey>(`/me/api-keys/${id}`, limits, { auth: 'user' }));
}

export function useRevokeKey() {
  return useKeyMutation((id: number) => api.delete<void>(`/me/api-keys/${id}`, { auth: 'user' }));
}

/** The grace period of a roll: whole minutes, 0 to a week (the API's bounds). */
export const GRACE_MAX_MINUTES = 10_080;

export const rollKeySchema = z.object({
  grace_minutes: z.coerce
    .number({ invalid_type_error: 'Enter the grace period in minutes' })
    .int('Enter whole minutes')
    .min(0, 'The grace period cannot be negative')
    .max(GRACE_MAX_MINUTES, 'The grace period can be at most a week (10080 minutes)'),
});

export function useRollKey() {
  return useKeyMutation(({ id, grace_minutes }: { id: number; grace_minutes: number }) =>
    api.post<CreatedKey>(`/me/api-keys/${id}/roll`, { grace_minutes }, { auth: 'user' }),
  );
}
