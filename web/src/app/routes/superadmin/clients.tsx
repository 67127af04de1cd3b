// /superadmin/clients (spec part 2, §2.14). View details keeps the client and opens
// /superadmin/client-details.
import { useNavigate } from 'react-router';
import { storeSelectedClient } from '@/features/clients/api/selected-client';
import { ClientsTable } from '@/features/clients/components/clients-table';
import { paths } from '../../paths';

export default function ClientsPage() {
  const navigate = useNavigate();
  return (
    <section className="page">
      <ClientsTable
        onView={(c) => {
          storeSelectedClient(c);
          navigate(paths.superadmin.clientDetails);
        }}
      />
    </section>
  );
}
