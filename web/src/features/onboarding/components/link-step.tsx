// Step 6: the whitelabel links.
import { Link } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { CopyIcon } from '@/components/ui/icons';

export function LinkStep({ userDashboardUrl }: { userDashboardUrl: string | null | undefined }) {
  const toast = useToast();
  const copy = async () => {
    if (!userDashboardUrl) return;
    try {
      await navigator.clipboard.writeText(userDashboardUrl);
    } catch {
      // Without the async clipboard (plain http), fall back to a hidden field.
      const area = document.createElement('textarea');
      area.value = userDashboardUrl;
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    toast.show('Copied to clipboard', 2000);
  };

  return (
    <div className="link-step">
      <h2>Your whitelabel is ready</h2>
      <div className="link-block">
        <span className="field-label">Admin dashboard</span>
        <Link to="/auth" className="btn btn-primary">
          Go to admin dashboard
        </Link>
      </div>
      <div className="link-block">
        <span className="field-label">User dashboard</span>
        <div className="copy-row">
          <a href={userDashboardUrl ?? undefined} target="_blank" rel="noreferrer" className="copy-url">
            {userDashboardUrl}
          </a>
          <button type="button" className="icon-button" aria-label="Copy user dashboard link" title="Copy" onClick={copy}>
            <CopyIcon />
          </button>
        </div>
      </div>
      <p className="field-hint">
        Note: The user dashboard link is also available later in your admin dashboard.
      </p>
    </div>
  );
}
