// /superadmin/apis: the API catalogue (spec part 2, §2.17).
import { ApisTable } from '@/features/catalogue/components/apis-table';

export default function ApisPage() {
  return (
    <section className="page">
      <ApisTable />
    </section>
  );
}
