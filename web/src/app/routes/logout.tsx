// /logout and /superadmin/logout: end the session (server and browser), then go to the matching login.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { logoutPartner, logoutSuperAdmin } from '@/lib/auth';
import { applyTheme } from '@/lib/theme';
import { paths } from '../paths';

function useLogout(clear: () => void, to: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    clear();
    queryClient.clear();
    // Drop the partner's branding so the login page shows the platform's own.
    applyTheme(null);
    navigate(to, { replace: true });
  }, [clear, navigate, queryClient, to]);
}

export function PartnerLogout() {
  useLogout(logoutPartner, paths.auth);
  return null;
}

export function SuperAdminLogout() {
  useLogout(logoutSuperAdmin, paths.superadmin.auth);
  return null;
}
