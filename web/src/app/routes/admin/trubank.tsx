// /trubank (spec part 2, §2.6): the manual bank-statement verification queue. End users submit
// requests through the product API; the partner views each statement and changes its status,
// and the user is told by mail.
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { BankStatementsTable } from '@/features/trubank/components/bank-statements-table';
import { ChangeStatusModal } from '@/features/trubank/components/change-status-modal';
import type { BankStatementRequest } from '@/features/trubank/api/types';

export default function TruBankPage() {
  const [changing, setChanging] = useState<BankStatementRequest | null>(null);
  const msg = useTimedMessage();
  return (
    <section className="page">
      <div className="page-head">
        <h1 className="page-title">TruBank</h1>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <BankStatementsTable onChangeStatus={setChanging} />
      <ChangeStatusModal
        request={changing}
        onClose={() => setChanging(null)}
        onChanged={() => {
          setChanging(null);
          msg.success('Status changed successfully');
        }}
      />
    </section>
  );
}
