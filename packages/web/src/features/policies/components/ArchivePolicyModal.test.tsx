import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, waitFor } from '../../../test/render';
import { dialog, optionsOf, pick } from '../../../test/ui';
import { ArchivePolicyModal } from './ArchivePolicyModal';
import { API, doc } from './policy-test-fixtures';

const PUBLISHED = [
  doc({ id: 5, number: '2.1', title: 'Restraints' }),
  doc({ id: 9, number: '2.4', title: 'Restraint and seclusion' }),
  doc({ id: 11, title: 'Visitors' }),
];

async function open(onConfirm = vi.fn()) {
  const api = stubApi({ [`GET ${API}/documents`]: jsonResponse(PUBLISHED) });
  await render(
    <ArchivePolicyModal
      opened
      projectId="12"
      document={{ id: 5, title: 'Restraints' }}
      onConfirm={onConfirm}
      onCancel={() => {}}
    />,
  );
  return { api, onConfirm };
}

describe('ArchivePolicyModal', () => {
  it('offers the other published policies as the replacement and passes the one chosen', async () => {
    const { api, onConfirm } = await open();
    expect(text(dialog())).toContain('Archive policy "Restraints"?');
    await waitFor(() => expect(api.calls(`GET ${API}/documents`)).toHaveLength(1));
    expect(api.calls(`GET ${API}/documents`)[0]!.query.get('status')).toBe('published');
    expect(await optionsOf('Replaced by (optional)')).toEqual(['2.4 Restraint and seclusion', 'Visitors']);
    await pick('Replaced by (optional)', '2.4 Restraint and seclusion');
    await click(getControl('Archive', dialog()));
    expect(onConfirm).toHaveBeenCalledWith(9);
  });

  it('archives without a replacement when none is chosen', async () => {
    const { onConfirm } = await open();
    await click(getControl('Archive', dialog()));
    expect(onConfirm).toHaveBeenCalledWith(null);
  });
});
