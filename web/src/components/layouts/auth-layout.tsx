import type { ReactNode } from 'react';
import { SiteBrand } from '@/components/layouts/site-brand';

/** The frame of the sign-in, sign-up and password pages. */
export function AuthLayout({ children, headerRight }: { children: ReactNode; headerRight?: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-header">
        <SiteBrand />
        <div>{headerRight}</div>
      </header>
      <main className="auth-main">{children}</main>
    </div>
  );
}
