// Every portal page sits under this: it loads the site (GET /public/portal) once and shows it
// in the partner's colours and icon, or says the site is not available.
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useSite } from '@/features/portal/api/get-site';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyFavicon, applyTheme } from '@/lib/theme';
import '@/styles/portal.css';

export function PortalRoot() {
  const site = useSite();
  useEffect(() => {
    if (!site.data) return;
    applyTheme(site.data.theme);
    applyFavicon(site.data.favicon_url);
  }, [site.data]);

  if (site.isPending) return <Spinner />;
  if (site.isError) {
    const gone = site.error instanceof ApiError && site.error.status === 404;
    return (
      <div className="page-center">
        <h1>{gone ? 'This site is not available' : 'Something went wrong'}</h1>
        <p role="alert">{gone ? 'The address may be mistyped, or the site is no longer active.' : errorMessage(site.error)}</p>
        {!gone && (
          <button type="button" className="btn btn-primary" onClick={() => site.refetch()}>
            Try again
          </button>
        )}
      </div>
    );
  }
  return <Outlet />;
}
