// The partner admin shell (spec part 1 "Admin area shell").
import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { usePartnerMe } from '@/features/partner/api/get-me';
import { WalletBalances } from '@/features/wallets/components/wallet-balances';
import { applyFavicon, applyTheme } from '@/lib/theme';
import { paths } from '../paths';
import { MenuIcon } from '@/components/ui/icons';

type NavItem = { label: string; to: string; alsoActiveOn?: string[] };

export const adminNav: NavItem[] = [
  { label: 'Dashboard', to: paths.dashboard },
  { label: 'User Accounts', to: paths.userAccounts, alsoActiveOn: [paths.userDetail] },
  { label: 'Add User Manually', to: paths.addUserManually },
  { label: 'User Transactions', to: paths.userTransactions },
  { label: 'My Transactions', to: paths.myTransactions },
  { label: 'My Plan', to: paths.myPlan },
  { label: 'TruBank', to: paths.trubank },
  { label: 'My Account', to: paths.myAccount },
  { label: 'Whitelist IP', to: paths.whitelistIp },
  { label: 'IP Hits', to: paths.ipHits },
  { label: 'Reset Password', to: paths.resetPassword },
];

export function AdminLayout() {
  const me = usePartnerMe();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirmLogout, setConfirmLogout] = useState(false);

  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!me.data) return;
    applyTheme(me.data.theme);
    applyFavicon(me.data.favicon_url);
    if (me.data.title) document.title = me.data.title;
  }, [me.data]);

  const name = me.data?.title || me.data?.user_name || '';

  return (
    <div className={menuOpen ? 'shell menu-open' : 'shell'}>
      <aside className="sidebar" aria-label="Main menu">
        <div className="sidebar-brand">
          {me.data?.logo_url ? <img src={me.data.logo_url} alt={name || 'Logo'} className="brand-logo" /> : <span className="brand-text">{name}</span>}
          <button type="button" className="icon-button sidebar-close" aria-label="Close menu" onClick={() => setMenuOpen(false)}>
            ×
          </button>
        </div>
        <nav>
          <ul className="nav-list">
            {adminNav.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    isActive || item.alsoActiveOn?.includes(pathname) ? 'nav-link active' : 'nav-link'
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button type="button" className="nav-link nav-button" onClick={() => setConfirmLogout(true)}>
                Logout
              </button>
            </li>
          </ul>
        </nav>
      </aside>
      <div className="sidebar-scrim" onClick={() => setMenuOpen(false)} aria-hidden="true" />
      <div className="shell-main">
        <header className="topbar">
          <button type="button" className="icon-button hamburger" aria-label="Open menu" onClick={() => setMenuOpen(true)}>
            <MenuIcon />
          </button>
          <WalletBalances />
        </header>
        <main className="content">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
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
    </div>
  );
}
