// The partner admin shell (spec part 1 "Admin area shell").
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Shell, type NavItem } from '@/components/layouts/shell';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { usePartnerMe } from '@/features/onboarding/api/get-me';
import { WalletBalances } from '@/features/wallets/components/wallet-balances';
import { brandName } from '@/lib/brand';
import { applyFavicon, applyTheme } from '@/lib/theme';
import { paths } from '../paths';

export const adminNav: NavItem[] = [
  { label: 'Dashboard', to: paths.dashboard },
  { label: 'User Accounts', to: paths.userAccounts, alsoActiveOn: [paths.userDetail] },
  { label: 'Add User Manually', to: paths.addUserManually },
  { label: 'User Transactions', to: paths.userTransactions },
  { label: 'My Transactions', to: paths.myTransactions },
  { label: 'My Plan', to: paths.myPlan },
  { label: 'My APIs', to: paths.myApis },
  { label: 'TruBank', to: paths.trubank },
  { label: 'My Account', to: paths.myAccount },
  { label: 'Whitelist IP', to: paths.whitelistIp },
  { label: 'IP Hits', to: paths.ipHits },
  { label: 'Webhooks', to: paths.webhooks },
  { label: 'Reset Password', to: paths.resetPassword },
];

export function AdminLayout() {
  const me = usePartnerMe();
  const navigate = useNavigate();
  const [confirmLogout, setConfirmLogout] = useState(false);

  useEffect(() => {
    if (!me.data) return;
    applyTheme(me.data.theme);
    applyFavicon(me.data.favicon_url);
    if (me.data.title) document.title = me.data.title;
  }, [me.data]);

  const name = brandName(me.data?.title) || me.data?.user_name || '';

  return (
    <Shell
      label="Main menu"
      brand={
        me.data?.logo_url ? (
          <img src={me.data.logo_url} alt={name || 'Logo'} className="brand-logo" />
        ) : (
          <span className="brand-text">{name}</span>
        )
      }
      items={adminNav}
      logout={
        <button type="button" className="nav-link nav-button" onClick={() => setConfirmLogout(true)}>
          Logout
        </button>
      }
      topbar={<WalletBalances />}
    >
      <ConfirmDialog
        open={confirmLogout}
        message="Are you sure you want to logout?"
        confirmLabel="Logout"
        cancelLabel="Cancel"
        onCancel={() => setConfirmLogout(false)}
        onConfirm={() => {
          setConfirmLogout(false);
          navigate(paths.logout);
        }}
      />
    </Shell>
  );
}
