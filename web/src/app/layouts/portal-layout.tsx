// The signed-in end user's frame on a partner's site: the partner's logo, the portal's menu
// (Batch only while the partner's Batch Processing is on), both wallet balances, Logout.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Shell, type NavItem } from '@/components/layouts/shell';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useMe } from '@/features/portal/api/get-me';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { portalPaths } from '@/features/portal/paths';
import { brandName } from '@/lib/brand';
import { formatRupees } from '@/lib/format';

/** The menu; `batch` adds Batch verification (the partner's Batch Processing). */
export function portalNav({ batch }: { batch: boolean }): NavItem[] {
  return [
    { label: 'Dashboard', to: portalPaths.dashboard },
    { label: 'APIs', to: portalPaths.apis },
    { label: 'API Keys', to: portalPaths.apiKeys },
    { label: 'Try it', to: portalPaths.tryIt },
    { label: 'History', to: portalPaths.history },
    ...(batch ? [{ label: 'Batch', to: portalPaths.batch }] : []),
    { label: 'Webhooks', to: portalPaths.webhooks },
    { label: 'Top-up', to: portalPaths.topUp },
    { label: 'Profile', to: portalPaths.profile },
  ];
}

export function PortalLayout() {
  const site = useLoadedSite();
  const me = useMe();
  const navigate = useNavigate();
  const [confirmLogout, setConfirmLogout] = useState(false);
  const name = brandName(site.title);
  const batch = me.data?.partner.batch_processing ?? site.batch_processing;

  return (
    <Shell
      label="Main menu"
      brand={site.logo_url ? <img src={site.logo_url} alt={name} className="brand-logo" /> : <span className="brand-text">{name}</span>}
      items={portalNav({ batch })}
      logout={
        <button type="button" className="nav-link nav-button" onClick={() => setConfirmLogout(true)}>
          Logout
        </button>
      }
      topbar={
        <div className="wallets" aria-label="Wallet balances">
          <span className="wallet-chip">
            <span className="wallet-label">API Wallet</span>
            <span className="wallet-amount" data-testid="api-wallet">
              {me.data ? formatRupees(me.data.wallets.api.balance_paise) : '–'}
            </span>
          </span>
          <span className="wallet-chip">
            <span className="wallet-label">Product Wallet</span>
            <span className="wallet-amount">{me.data ? formatRupees(me.data.wallets.product.balance_paise) : '–'}</span>
          </span>
        </div>
      }
    >
      <ConfirmDialog
        open={confirmLogout}
        message="Are you sure you want to logout?"
        confirmLabel="Logout"
        cancelLabel="Cancel"
        onCancel={() => setConfirmLogout(false)}
        onConfirm={() => {
          setConfirmLogout(false);
          navigate(portalPaths.logout);
        }}
      />
    </Shell>
  );
}
