// The super-admin shell (spec part 2 §2.11).
import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useSuperAdminMe } from '@/features/superadmin/api/get-me';
import { getSuperAdminClaims } from '@/lib/auth';
import { paths } from '../paths';
import { MenuIcon } from '@/components/ui/icons';

type NavItem = { label: string; to: string; title: string; alsoActiveOn?: string[] };

const sa = paths.superadmin;

export const superAdminNav: NavItem[] = [
  { label: 'Dashboard', to: sa.dashboard, title: 'Dashboard' },
  { label: 'Clients', to: sa.clients, title: 'Clients', alsoActiveOn: [sa.clientDetails] },
  { label: "Test API's", to: sa.testApis, title: "Test API's" },
  { label: "API's", to: sa.apis, title: "API's" },
  { label: 'Plans', to: sa.plans, title: 'Plans' },
  { label: 'Wallet Transactions', to: sa.walletTransactions, title: 'Wallet Transactions' },
];

const extraTitles: Record<string, string> = { [sa.clientDetails]: 'Client Details' };

export function superAdminTitle(pathname: string): string {
  const item = superAdminNav.find((n) => n.to === pathname);
  return item?.title ?? extraTitles[pathname] ?? '';
}

export function SuperAdminLayout() {
  const { pathname } = useLocation();
  const me = useSuperAdminMe();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);

  const email = me.data?.email ?? getSuperAdminClaims()?.email ?? '';
  const title = superAdminTitle(pathname);

  return (
    <div className={menuOpen ? 'shell sa-shell menu-open' : 'shell sa-shell'}>
      <aside className="sidebar" aria-label="Super admin menu">
        <div className="sidebar-brand">
          <span className="brand-text">Super Admin</span>
          <button type="button" className="icon-button sidebar-close" aria-label="Close menu" onClick={() => setMenuOpen(false)}>
            ×
          </button>
        </div>
        <nav>
          <ul className="nav-list">
            {superAdminNav.map((item) => (
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
              <NavLink to={sa.logout} className="nav-link">
                Logout
              </NavLink>
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
          <h1 className="topbar-title">{title}</h1>
          <span className="topbar-email">{email}</span>
        </header>
        <main className="content">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
