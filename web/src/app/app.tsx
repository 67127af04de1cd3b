import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { portalSubdomain } from '@/lib/site';
import { AppProviders } from './providers';
import { createPortalRouter } from './portal-router';
import { createAppRouter } from './router';

export function App() {
  // A partner's site gets the end users' portal; the platform's address gets everything else.
  const [router] = useState(() => (portalSubdomain() ? createPortalRouter() : createAppRouter()));
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
