import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PLATFORM_NAME } from '@/lib/brand';

/** The frame of the sign-in, sign-up and password pages. */
export function AuthLayout({ children, headerRight }: { children: ReactNode; headerRight?: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Link to="/" className="brand-text">
          {PLATFORM_NAME}
        </Link>
        <div>{headerRight}</div>
      </header>
      <main className="auth-main">{children}</main>
    </div>
  );
}
