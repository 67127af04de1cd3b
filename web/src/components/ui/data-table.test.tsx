import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import { renderRoutes } from '@/testing/test-utils';
import { DataTable, usePageParam } from './data-table';

type Row = { id: number; name: string };
const columns: ColumnDef<Row>[] = [
  { header: '#', accessorKey: 'id' },
  { header: 'Name', accessorKey: 'name' },
];

function Page({ rows, pages }: { rows: Row[]; pages: number }) {
  const [page] = usePageParam();
  return (
    <>
      <p>server page {page}</p>
      <DataTable columns={columns} data={rows} pageCount={pages} emptyText="No data" />
    </>
  );
}

describe('DataTable', () => {
  it('renders rows and the N of M caption from the URL page', async () => {
    const { router } = renderRoutes([{ path: '/list', element: <Page rows={[{ id: 1, name: 'Asha' }]} pages={3} /> }], '/list?page=2');
    expect(await screen.findByText('Asha')).toBeInTheDocument();
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(router.state.location.search).toBe('?page=3');
    expect(screen.getByText('server page 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
  });

  it('shows the empty text when there are no rows', async () => {
    renderRoutes([{ path: '/list', element: <Page rows={[]} pages={0} /> }], '/list');
    expect(await screen.findByText('No data')).toBeInTheDocument();
    expect(screen.getByText('1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  });
});
