// /logout and /superadmin/logout: clear the session, then go to the matching login.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { clearPartnerSession, clearSuperAdminSession } from '@/lib/auth';
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
  useLogout(clearPartnerSession, paths.auth);
  return null;
}

export function SuperAdminLogout() {
  useLogout(clearSuperAdminSession, paths.superadmin.auth);
  return null;
}
