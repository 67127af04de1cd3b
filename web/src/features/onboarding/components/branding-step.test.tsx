import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { BrandingStep } from './branding-step';

// Node's File, not jsdom's: the upload hands it to fetch as the body, which reads it as a stream.
const file = (name: string, bytes: number, type = 'image/png') => new NodeFile([new Uint8Array(bytes)], name, { type });

function setup() {
  const onDone = vi.fn();
  const calls = mockApi({
    'POST /uploads': ({ init }) => {
      // Like the server: underscores for spaces and a random 5-letter upper-case prefix.
      const body = JSON.parse(String(init.body));
      const key = `k/ABCDE${String(body.file_name).replace(/ /g, '_')}`;
      return { status: 200, body: { key, url: `/files/${key}`, method: 'PUT', headers: {} } };
    },
    'PUT /files/*': { status: 200 },
    'PUT /partner/branding': { status: 200, body: {} },
  });
  renderRoutes([{ path: '/', element: <BrandingStep userName="acme" onDone={onDone} /> }], '/');
  return { onDone, calls };
}

describe('BrandingStep', () => {
  beforeAll(() => {
    URL.createObjectURL = () => 'blob:preview';
  });

  it('fills the defaults from the user name and the default colours', () => {
    setup();
    expect(screen.getByLabelText('Title')).toHaveValue('acme - Home');
    expect(screen.getByLabelText('Description')).toHaveValue('acme - API KYC Solution');
    expect(screen.getByLabelText('Primary colour')).toHaveValue('#6091E2');
    expect(screen.getByLabelText('Secondary colour')).toHaveValue('#9462E7');
    expect(screen.getByLabelText('Tertiary colour')).toHaveValue('#00FFFB');
  });

  it('asks for both files before Next', async () => {
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getAllByText('Please select a file')).toHaveLength(2);
  });

  it('rejects a logo over 1MB and a favicon over 10KB', async () => {
    setup();
    fireEvent.change(screen.getByLabelText('Logo'), { target: { files: [file('big logo.png', 1024 * 1024 + 1)] } });
    fireEvent.change(screen.getByLabelText('Favicon'), { target: { files: [file('fav.png', 10 * 1024 + 1)] } });
    expect(await screen.findByText('File size is too large. Please select a file smaller than 1MB.')).toBeInTheDocument();
    expect(screen.getByText('File size is too large. Please select a file smaller than 10KB.')).toBeInTheDocument();
  });

  it('uploads both files and saves the branding with their keys', async () => {
    const { onDone, calls } = setup();
    fireEvent.change(screen.getByLabelText('Logo'), { target: { files: [file('my logo.png', 2000)] } });
    fireEvent.change(screen.getByLabelText('Favicon'), { target: { files: [file('fav.png', 500)] } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
    await waitFor(() => expect(calls.filter((c) => c.init.method === 'PUT' && c.url.startsWith('/files/'))).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    // The plain file name goes to /uploads; the key the server made is what branding gets.
    const upload = calls.find((c) => c.url === '/api/v1/uploads')!;
    expect(JSON.parse(String(upload.init.body)).file_name).toBe('my logo.png');
    const save = calls.find((c) => c.url === '/api/v1/partner/branding')!;
    const body = JSON.parse(String(save.init.body));
    expect(body.logo_key).toMatch(/^k\/[A-Z]{5}my_logo\.png$/);
    expect(body.theme).toEqual({ primary: '#6091E2', secondary: '#9462E7', tertiary: '#00FFFB' });
  });
});
