// Client details header: initials, full name, username, id, phone with +91, e-mail, current
// plan, subdomain and 'Back to clients'.
import { Link } from 'react-router';
import { clientName, type Client } from '../api/types';

const initials = (c: Client) => `${c.first_name.charAt(0)}${c.last_name.charAt(0)}`.toUpperCase();
const planName = (p: string | null) => (p ? p.charAt(0).toUpperCase() + p.slice(1) : '_');

export function ClientHeader({ client, backTo }: { client: Client; backTo: string }) {
  return (
    <div className="client-header">
      <Link to={backTo} className="back-link">
        <span aria-hidden="true">← </span>Back to clients
      </Link>
      <div className="client-header-main">
        <div className="avatar" aria-hidden="true">
          {initials(client)}
        </div>
        <div>
          <h2 className="client-name">{clientName(client)}</h2>
          <div className="muted">@{client.user_name}</div>
        </div>
      </div>
      <dl className="detail-grid">
        <div>
          <dt>Id</dt>
          <dd>{client.id}</dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{client.phone_number ? `+91 ${client.phone_number}` : '_'}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd className="break">{client.email}</dd>
        </div>
        <div>
          <dt>Current plan</dt>
          <dd>{planName(client.plan)}</dd>
        </div>
        <div>
          <dt>Subdomain</dt>
          <dd>{client.subdomain || '_'}</dd>
        </div>
      </dl>
    </div>
  );
}
