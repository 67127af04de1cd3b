// /logout on a partner's site: ends the user's session (server and browser), forgets what the
// cache holds about the user, and goes to sign-in.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { portalKeys } from '@/features/portal/api/keys';
import { portalPaths } from '@/features/portal/paths';
import { logoutUser } from '@/lib/auth';

export function PortalLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    logoutUser();
    queryClient.removeQueries({ queryKey: portalKeys.session() });
    navigate(portalPaths.login, { replace: true });
  }, [navigate, queryClient]);
  return null;
}
