// /user-accounts (spec part 1, 'User Accounts'). View details stores the user and opens
// /user-detail.
import { useNavigate } from 'react-router';
import { storeSelectedUser } from '@/features/users/api/selected-user';
import { UserCards } from '@/features/users/components/user-cards';
import { paths } from '../../paths';

export default function UserAccountsPage() {
  const navigate = useNavigate();
  return (
    <section className="page">
      <h1 className="page-title">User Accounts</h1>
      <UserCards
        addUserPath={paths.addUserManually}
        onView={(u) => {
          storeSelectedUser(u);
          navigate(paths.userDetail);
        }}
      />
    </section>
  );
}
