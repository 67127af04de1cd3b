import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rupeeField } from '@/lib/money';
import { ownerPath, type EntryType, type WalletKind, type WalletOwner } from './types';
import { walletsKeys } from './keys';

/** The amount typed in whole rupees (the spec parses credits as integers); sent as paise. */
export const walletEntrySchema = z.object({
  amount: rupeeField({
    required: 'Amount is required',
    number: 'Amount must be a number',
    negative: 'Amount cannot be negative',
    positive: 'Amount must be greater than zero',
    whole: 'Enter the amount in whole rupees, without paise',
  }),
});
export type WalletEntryForm = z.input<typeof walletEntrySchema>;

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
