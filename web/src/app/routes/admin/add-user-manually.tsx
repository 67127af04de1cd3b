// /add-user-manually (spec part 1 'Add User Manually').
import { AddUserForm } from '@/features/users/components/add-user-form';

export default function AddUserManuallyPage() {
  return (
    <section className="page">
      <h1 className="page-title">Add User Manually</h1>
      <AddUserForm />
    </section>
  );
}
