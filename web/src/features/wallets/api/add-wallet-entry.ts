import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rupeeField } from '@/lib/money';
import { ownerPath, type EntryType, type WalletKind, type WalletOwner } from './types';
import { walletsKeys } from './keys';

/** The most one credit of a user's wallet may be (the server's `MAX_USER_CREDIT_PAISE`). */
export const MAX_USER_CREDIT_PAISE = 10_00_000_00;

/**
 * The amount typed in rupees with up to two decimals (₹0.69 can be deducted); sent as paise.
 * A user's credit is capped at ₹10,00,000.00 a time, as the server caps it.
 */
export const walletEntrySchema = (capCredits: boolean) =>
  z.object({
    amount: rupeeField({
      required: 'Amount is required',
      number: 'Amount must be a number',
      negative: 'Amount cannot be negative',
      positive: 'Amount must be greater than zero',
      decimals: 'Enter the amount in rupees with at most 2 decimals (paise)',
      tooLarge: 'Amount is too large',
      max: capCredits ? { paise: MAX_USER_CREDIT_PAISE, message: 'A credit can be at most ₹10,00,000.00 at a time' } : undefined,
    }),
  });
export type WalletEntryForm = z.input<ReturnType<typeof walletEntrySchema>>;

export type WalletEntryInput = {
  owner: WalletOwner;
  kind: WalletKind;
  type: EntryType;
  amount_paise: number;
  idempotency_key: string;
};

export type EntryCreated = { entry_id: number; balance_paise: number; replayed?: boolean };

/** Add Credits / Deduct Credits. 402 when a debit is beyond the balance. */
export const addWalletEntry = ({ owner, kind, ...body }: WalletEntryInput) =>
  api.post<EntryCreated>(`${ownerPath(owner)}/wallets/${kind}/entries`, body);

export function useAddWalletEntry(owner: WalletOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addWalletEntry,
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: walletsKeys.ownerBalances(owner) });
      qc.invalidateQueries({ queryKey: walletsKeys.ownerEntries(owner) });
      if (owner.scope === 'client') qc.invalidateQueries({ queryKey: walletsKeys.allEntries() });
    },
  });
}
