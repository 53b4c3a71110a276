import type { ProjectDetails } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { API, chooseFile, dialog, fieldError, openAdmin, sessionRoutes, toasts } from './test-helpers';

const PATH = '/app/admin/12/project-details-edit';

const DETAILS: ProjectDetails = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  facility_name: 'North Clinic Inc.',
  address: '1 Main Street',
  phone: '555-0100',
  email: 'contact@north.example',
  logo_url: null,
  active_apps: ['monitoring', 'admin'],
};

/** A tiny server keeping the details. */
function server(routes: Record<string, StubHandler> = {}) {
  let details: ProjectDetails = { ...DETAILS };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/details`]: () => jsonResponse(details),
    [`PATCH ${API}/details`]: (request: StubRequest) => {
      details = { ...details, ...(request.body as Partial<ProjectDetails>) };
      return jsonResponse(details);
    },
    [`PUT ${API}/logo`]: () => {
      details = { ...details, logo_url: '/api/projects/12/logo' };
      return jsonResponse(details);
    },
    [`DELETE ${API}/logo`]: () => {
      details = { ...details, logo_url: null };
      return jsonResponse(details);
    },
    ...routes,
  });
}

describe('ProjectDetailsEditPage: details', () => {
  it('shows the details and the active apps read-only', async () => {
    server();
    await openAdmin(PATH);
    await waitFor(() => expect(getField('Name').value).toBe('North Clinic'));
    expect(document.querySelector('h1')!.textContent).toBe('Project Details');
    expect(getField('Facility name').value).toBe('North Clinic Inc.');
    expect((getField('Address') as unknown as HTMLTextAreaElement).value).toBe('1 Main Street');
    expect(getField('Phone').value).toBe('555-0100');
    expect(getField('Contact email').value).toBe('contact@north.example');
    expect(text(document.querySelector('[data-testid="active-apps"]')!)).toBe('MonitoringAdmin');
    expect(text()).toContain('Active apps are set by a superadmin.');
    expect(text()).toContain('No logo yet.');
    expect(getControl('Save details').hasAttribute('disabled')).toBe(true);
  });

  it('sends only the changed fields and refreshes the project name', async () => {
    const api = server();
    await openAdmin(PATH);
    await waitFor(() => expect(getField('Name').value).toBe('North Clinic'));
    const projectLoads = api.calls('GET /api/projects/12').length;
    await typeInto(getField('Name'), '  North Clinic East ');
    await typeInto(getField('Phone'), '555-0199');
    await click(getControl('Save details'));
    await waitFor(() => expect(toasts()).toContain('Project details saved.'));
    expect(api.calls(`PATCH ${API}/details`)[0]!.body).toEqual({ name: 'North Clinic East', phone: '555-0199' });
    expect(getField('Name').value).toBe('North Clinic East');
    // The project's own queries (the layout's name) load again.
    await waitFor(() => expect(api.calls('GET /api/projects/12').length).toBeGreaterThan(projectLoads));
  });

  it('checks the fields and shows the server field errors inline', async () => {
    const api = server({
      [`PATCH ${API}/details`]: jsonResponse(
        { message: 'The given data was invalid.', errors: { email: ['This address cannot receive mail.'] } },
        422,
      ),
    });
    await openAdmin(PATH);
    await waitFor(() => expect(getField('Name').value).toBe('North Clinic'));
    await typeInto(getField('Name'), '   ');
    await typeInto(getField('Contact email'), 'nope');
    await click(getControl('Save details'));
    expect(fieldError('Name')).toBe('Enter the name.');
    expect(fieldError('Contact email')).toBe('Enter a valid email address.');
    expect(api.calls(`PATCH ${API}/details`)).toHaveLength(0);

    await typeInto(getField('Name'), 'North Clinic');
    await typeInto(getField('Contact email'), 'desk@north.example');
    await click(getControl('Save details'));
    await waitFor(() => expect(fieldError('Contact email')).toBe('This address cannot receive mail.'));
    expect(api.calls(`PATCH ${API}/details`)[0]!.body).toEqual({ email: 'desk@north.example' });
  });
});

describe('ProjectDetailsEditPage: logo', () => {
  it('refuses a file that is too big or not an image, without sending it', async () => {
    const api = server();
    await openAdmin(PATH);
    await waitFor(() => getControl('Upload logo'));
    await chooseFile(new File([new Uint8Array(512 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    await waitFor(() => expect(text()).toContain('The logo must be at most 512 KB.'));
    await chooseFile(new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    await waitFor(() => expect(text()).toContain('The logo must be a PNG, JPEG or WebP image.'));
    expect(api.calls(`PUT ${API}/logo`)).toHaveLength(0);
  });

  it('uploads the logo as base64 and shows it', async () => {
    const api = server();
    await openAdmin(PATH);
    await waitFor(() => getControl('Upload logo'));
    await chooseFile(new File(['PNGDATA'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(toasts()).toContain('Logo uploaded.'));
    expect(api.calls(`PUT ${API}/logo`)[0]!.body).toEqual({ content_type: 'image/png', data: 'UE5HREFUQQ==' });
    const logo = document.querySelector<HTMLImageElement>('img[data-testid="logo"]');
    expect(logo?.getAttribute('src')).toMatch(/^\/api\/projects\/12\/logo\?v=\d+$/);
    expect(logo?.getAttribute('alt')).toBe('North Clinic logo');
    expect(getControl('Replace logo')).toBeTruthy();
  });

  it('asks before removing the logo', async () => {
    const api = server({ [`GET ${API}/details`]: jsonResponse({ ...DETAILS, logo_url: '/api/projects/12/logo' }) });
    await openAdmin(PATH);
    await waitFor(() => getControl('Remove logo'));
    await click(getControl('Remove logo'));
    await waitFor(() => expect(text(dialog())).toContain('Remove the logo?'));
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`DELETE ${API}/logo`)).toHaveLength(0);

    await click(getControl('Remove logo'));
    await waitFor(() => dialog());
    await click(getControl('Remove logo', dialog()));
    await waitFor(() => expect(toasts()).toContain('Logo removed.'));
    expect(api.calls(`DELETE ${API}/logo`)).toHaveLength(1);
  });
});
