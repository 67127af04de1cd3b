// /superadmin/test-apis: the sandbox list (spec part 2, §2.17).
import { TestApisTable } from '@/features/catalogue/components/test-apis-table';

export default function TestApisPage() {
  return (
    <section className="page">
      <TestApisTable />
    </section>
  );
}
