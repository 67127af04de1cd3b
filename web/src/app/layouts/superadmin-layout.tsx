// The super-admin shell (spec part 2 §2.11).
import { NavLink, useLocation } from 'react-router';
import { Shell, type NavItem } from '@/components/layouts/shell';
import { useSuperAdminMe } from '@/features/auth/api/get-superadmin-me';
import { getSuperAdminClaims } from '@/lib/auth';
import { paths } from '../paths';

const sa = paths.superadmin;

export const superAdminNav: NavItem[] = [
  { label: 'Dashboard', to: sa.dashboard },
  { label: 'Clients', to: sa.clients, alsoActiveOn: [sa.clientDetails] },
  { label: "Test API's", to: sa.testApis },
  { label: "API's", to: sa.apis },
  { label: 'Plans', to: sa.plans },
  { label: 'Wallet Transactions', to: sa.walletTransactions },
  { label: 'Jobs', to: sa.jobs },
  { label: 'Mail', to: sa.mail },
];

const extraTitles: Record<string, string> = { [sa.clientDetails]: 'Client Details' };

/** The header's page title: the menu label of the screen. */
export function superAdminTitle(pathname: string): string {
  return superAdminNav.find((n) => n.to === pathname)?.label ?? extraTitles[pathname] ?? '';
}

export function SuperAdminLayout() {
  const { pathname } = useLocation();
  const me = useSuperAdminMe();
  const email = me.data?.email ?? getSuperAdminClaims()?.email ?? '';

  return (
    <Shell
      label="Super admin menu"
      brand={<span className="brand-text">Super Admin</span>}
      items={superAdminNav}
      logout={
        <NavLink to={sa.logout} className="nav-link">
          Logout
        </NavLink>
      }
      topbar={
        <>
          <h1 className="topbar-title">{superAdminTitle(pathname)}</h1>
          <span className="topbar-email">{email}</span>
        </>
      }
    />
  );
}
