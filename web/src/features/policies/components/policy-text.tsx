// A policy page's body: its title and paragraphs, as plain text.
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { usePolicy, type PolicyKind } from '../api/get-policy';

export function PolicyText({ kind }: { kind: PolicyKind }) {
  const policy = usePolicy(kind);
  if (policy.isLoading) return <Spinner />;
  if (policy.isError) return <Alert message={{ kind: 'error', text: errorMessage(policy.error) }} />;
  const p = policy.data!;
  return (
    <article className="policy">
      <h1 className="section-title">{p.title}</h1>
      {p.paragraphs.map((text, i) => (
        <p key={i}>{text}</p>
      ))}
    </article>
  );
}
