// User Accounts: one card per user with running number, created date, User Id, Name,
// Active/Inactive, phone (or '_'), email and View details; for the partner also a search and
// each card's Edit, Deactivate/Activate and Send reset mail. The super admin's client details
// (Users, spec part 2 §2.15) show a client's users the same way, 8 per page, with the user name
// and 'View Details'.
import { Link } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { Pager } from '@/components/ui/pager';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useUsers } from '../api/get-users';
import { fullName, type User } from '../api/types';
import { UserActions } from './user-actions';
import { UserSearch, useUserSearch } from './user-search';

type Props = {
  onView: (user: User) => void;
  /** The partner's Add User Manually, offered when the list is empty. */
  addUserPath?: string;
  /** The client whose users the super admin sees, and that client's user name. */
  client?: { id: number; userName: string };
};

export function UserCards({ addUserPath, onView, client }: Props) {
  const search = useUserSearch();
  // The partner manages its own users; the super admin's view only reads a client's.
  const manage = client === undefined;
  const msg = useTimedMessage();
  return (
    <>
      {manage && <UserSearch key={search.q} q={search.q} onSearch={search.apply} onClear={search.clear} />}
      <Alert message={msg.message} onClose={msg.clear} />
      <Cards addUserPath={addUserPath} onView={onView} client={client} q={manage ? search.q : ''} onDone={msg.success} onError={msg.error} />
    </>
  );
}

function Cards({
  addUserPath,
  onView,
  client,
  q,
  onDone,
  onError,
}: Props & { q: string; onDone: (text: string) => void; onError: (text: string) => void }) {
  const [page] = usePageParam();
  const users = useUsers(page, client?.id, q);

  if (users.isLoading) return <Spinner />;
  if (users.isError) return <Alert message={{ kind: 'error', text: errorMessage(users.error) }} />;
  const data = users.data;
  if (!data || data.items.length === 0) {
    return (
      <div className="empty-state">
        <p>No user found...</p>
        {addUserPath && <Link to={addUserPath}>Add User Manually</Link>}
      </div>
    );
  }
  const offset = (data.page - 1) * data.per_page;
  return (
    <>
      <ul className="user-cards" aria-label="Users">
        {data.items.map((u, i) => (
          <li key={u.id} className="user-card">
            <div className="user-card-top">
              <span className="user-card-n">{offset + i + 1}</span>
              <span className="muted">{formatDate(u.created_at)}</span>
            </div>
            <dl className="user-card-fields">
              <dt>User Id</dt>
              <dd>{u.id}</dd>
              <dt>Name</dt>
              <dd>{fullName(u)}</dd>
              <dt>Status</dt>
              <dd>
                <span className={u.is_active ? 'badge badge-success' : 'badge badge-muted'}>{u.is_active ? 'Active' : 'Inactive'}</span>
              </dd>
              <dt>Phone</dt>
              <dd>{u.phone_number || '_'}</dd>
              <dt>Email</dt>
              <dd className="break">{u.email}</dd>
              {client && (
                <>
                  {/* An end user carries its client's user name (spec part 1 §7: a user is created with userName, the admin). */}
                  <dt>User Name</dt>
                  <dd>{client.userName}</dd>
                </>
              )}
            </dl>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => onView(u)}>
              {client ? 'View Details' : 'View details'}
            </button>
            {!client && <UserActions user={u} onDone={onDone} onError={onError} />}
          </li>
        ))}
      </ul>
      <Pager pages={data.pages} />
    </>
  );
}
