// The one DataTable fed by a page query: the query's rows, page count and loading state, and
// its error above the table. Every server-paged list is this with its own columns.
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api-client';
import { Alert } from './alert';
import { DataTable, type DataTableProps } from './data-table';

/** What a paged list endpoint answers, as far as the table reads it. */
export type PageOf<T> = { items: T[]; pages: number };

type Props<T> = Omit<DataTableProps<T>, 'data' | 'pageCount' | 'isLoading'> & {
  query: UseQueryResult<PageOf<T>>;
};

export function QueryTable<T>({ query, ...table }: Props<T>) {
  return (
    <>
      {query.isError && <Alert message={{ kind: 'error', text: errorMessage(query.error) }} />}
      <DataTable {...table} data={query.data?.items ?? []} pageCount={query.data?.pages ?? 1} isLoading={query.isLoading} />
    </>
  );
}
