// Shapes of the wallet endpoints (money in integer paise).
import { userApiPath } from '@/lib/user-ref';

export type WalletKind = 'api' | 'product';
export type EntryType = 'credit' | 'debit';

export type WalletView = {
  balance_paise: number;
  /** Only on a partner's own wallets: mail when a debit takes the balance below this. */
  low_balance_threshold_paise?: number | null;
  low_balance_alerted?: boolean;
};

export type Balances = { api: WalletView; product: WalletView };

/** One ledger row of the wallet-transaction lists. */
export type WalletEntry = {
  id: number;
  created_at: string;
  kind: WalletKind;
  type: EntryType;
  amount_paise: number;
  balance_after_paise: number | null;
  reason: string;
  reference: string | null;
  actor_kind: string;
  partner_id: number;
  user_id: number | null;
};

/**
 * Whose wallets a screen moves money on: an end user or a client (super admin). An end user
 * with `clientId` is a client's user seen by the super admin; without, the partner's own.
 */
export type WalletOwner = { scope: 'user' | 'client'; id: number; clientId?: number };

export function ownerPath(owner: WalletOwner): string {
  return owner.scope === 'user' ? userApiPath({ userId: owner.id, clientId: owner.clientId }) : `/superadmin/clients/${owner.id}`;
}

export const walletLabels: Record<WalletKind, string> = { api: 'API Wallet', product: 'Product Wallet' };
