// The frame both consoles share: a sidebar (an overlay menu under 768 px), a
// top bar with the menu button, and the routed screen.
import { Suspense, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { MenuIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';

export type NavItem = { label: string; to: string; alsoActiveOn?: string[] };

type ShellProps = {
  label: string;
  brand: ReactNode;
  items: NavItem[];
  /** The last menu entry, Logout; pressing it closes the mobile menu, so its confirm dialog stands alone. */
  logout: ReactNode;
  topbar: ReactNode;
  /** Dialogs and other overlays that belong to the shell. */
  children?: ReactNode;
};

export function Shell({ label, brand, items, logout, topbar, children }: ShellProps) {
  const { pathname } = useLocation();
  // The mobile menu is open on the page it was opened on: going to another page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const setMenuOpen = (open: boolean) => setOpenOn(open ? pathname : null);

  return (
    <div className={menuOpen ? 'shell menu-open' : 'shell'}>
      <aside className="sidebar" aria-label={label}>
        <div className="sidebar-brand">
          {brand}
          <button type="button" className="icon-button sidebar-close" aria-label="Close menu" onClick={() => setMenuOpen(false)}>
            ×
          </button>
        </div>
        <nav>
          <ul className="nav-list">
            {items.map((item) => (
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
            <li onClickCapture={() => setMenuOpen(false)}>{logout}</li>
          </ul>
        </nav>
      </aside>
      <div className="sidebar-scrim" onClick={() => setMenuOpen(false)} aria-hidden="true" />
      <div className="shell-main">
        <header className="topbar">
          <button type="button" className="icon-button hamburger" aria-label="Open menu" onClick={() => setMenuOpen(true)}>
            <MenuIcon />
          </button>
          {topbar}
        </header>
        <main className="content">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {children}
    </div>
  );
}
