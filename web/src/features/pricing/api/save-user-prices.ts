import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rupeeField } from '@/lib/money';
import { userApiPath, type UserRef } from '@/lib/user-ref';
import type { UserPrice } from './get-user-prices';
import { pricingKeys } from './keys';

export type PriceChange = { service: string; price_paise: number };

/** A change-price field: a number, minimum 0 (spec part 1, §5). */
export const changePriceField = rupeeField({
  required: 'Price is required',
  number: 'Price must be a number',
  negative: 'Price cannot be negative',
});

/**
 * The rows to send: only those whose field holds a price different from the one shown.
 * Empty fields ('-') and unchanged prices are left out (spec part 2, §5).
 */
export function changedPrices(
  rows: Pick<UserPrice, 'service' | 'user_amount_paise'>[],
  edits: Record<string, string>,
): { changes: PriceChange[]; errors: Record<string, string> } {
  const changes: PriceChange[] = [];
  const errors: Record<string, string> = {};
  for (const row of rows) {
    const text = edits[row.service];
    if (text === undefined || text.trim() === '') continue;
    const r = changePriceField.safeParse(text);
    if (!r.success) {
      errors[row.service] = r.error.issues[0].message;
      continue;
    }
    if (r.data !== row.user_amount_paise) changes.push({ service: row.service, price_paise: r.data });
  }
  return { changes, errors };
}

export const saveUserPrices = ({ user, prices }: { user: UserRef; prices: PriceChange[] }) =>
  api.put<{ changed: number }>(`${userApiPath(user)}/prices`, { prices });

export function useSaveUserPrices(user: UserRef) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveUserPrices,
    onSuccess: () => qc.invalidateQueries({ queryKey: pricingKeys.user(user.userId) }),
  });
}
