// User Detail header: user id, name, email, phone, address name and address lines 1-3.
import type { User } from '../api/types';
import { fullName } from '../api/types';

export function UserHeader({ user }: { user: User }) {
  const rows: [string, string][] = [
    ['User Id', String(user.id)],
    ['Name', fullName(user)],
    ['Email', user.email],
    ['Phone', user.phone_number || '_'],
    ['Address name', user.address_name || '_'],
    ['Address 1', user.address1 || '_'],
    ['Address 2', user.address2 || '_'],
    ['Address 3', user.address3 || '_'],
  ];
  return (
    <dl className="detail-grid">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
