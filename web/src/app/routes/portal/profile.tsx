// /profile on a partner's site.
import { Spinner } from '@/components/ui/spinner';
import { useMe } from '@/features/portal/api/get-me';
import { PasswordForm, ProfileForm } from '@/features/portal/components/profile-forms';
import { errorMessage } from '@/lib/api-client';

export default function PortalProfilePage() {
  const me = useMe();
  return (
    <section className="page">
      <h1 className="page-title">Profile</h1>
      {me.isPending ? <Spinner /> : me.isError ? <p role="alert">{errorMessage(me.error)}</p> : <ProfileForm key={me.data.id} me={me.data} />}
      <PasswordForm />
    </section>
  );
}
