import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, getControl, render, text, waitFor } from '../../../test/render';
import { dialog, toasts } from '../../../test/ui';
import { detail } from './document-test-helpers';
import { DepartmentQrButton, PolicyLinkActions } from './PolicyLinkActions';

const STABLE = `${window.location.origin}/p/12/4.2`;

function useClipboard(writeText: (value: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('PolicyLinkActions', () => {
  it('copies the stable link of the current version', async () => {
    const writeText = vi.fn(async () => {});
    useClipboard(writeText);
    await render(<PolicyLinkActions projectId="12" document={detail()} />);
    await click(getControl('Copy link'));
    expect(writeText).toHaveBeenCalledWith(STABLE);
    await waitFor(() => expect(toasts()).toContain('Link copied'));
  });

  it('shows the link to copy by hand when the browser refuses the clipboard', async () => {
    useClipboard(async () => {
      throw new DOMException('Denied', 'NotAllowedError');
    });
    await render(<PolicyLinkActions projectId="12" document={detail()} />);
    await click(getControl('Copy link'));
    await waitFor(() => expect(text(dialog())).toContain('Your browser did not allow copying.'));
    const field = dialog().querySelector<HTMLInputElement>('input')!;
    expect(field.value).toBe(STABLE);
    expect(field.readOnly).toBe(true);
    expect(toasts()).not.toContain('Link copied');
  });

  it("opens the policy's QR code sheet", async () => {
    await render(<PolicyLinkActions projectId="12" document={detail()} />);
    const qr = getControl('QR code');
    expect(qr.getAttribute('href')).toBe('/api/projects/12/policy-management/qr-sheet?document_id=5');
    expect(qr.getAttribute('target')).toBe('_blank');
  });

  it('says why a policy without a number has no link, with both buttons disabled', async () => {
    const writeText = vi.fn(async () => {});
    useClipboard(writeText);
    await render(<PolicyLinkActions projectId="12" document={detail({ number: null })} />);
    const copy = getControl('Copy link');
    expect(copy.getAttribute('aria-disabled')).toBe('true');
    expect(getControl('QR code').getAttribute('href')).toBeNull();
    await act(async () => {
      copy.focus();
    });
    await waitFor(() =>
      expect(text()).toContain('Give this policy a number to get a link that always opens its current version'),
    );
    await click(copy);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('disables the link of a policy never published', async () => {
    await render(<PolicyLinkActions projectId="12" document={detail({ current_version: null, status: 'draft' })} />);
    expect(getControl('Copy link').getAttribute('aria-disabled')).toBe('true');
  });
});

describe('DepartmentQrButton', () => {
  it("opens the department's QR sheet, or is disabled without policies", async () => {
    await render(
      <>
        <DepartmentQrButton projectId="12" department={{ id: 3, name: 'Nursing', document_count: 4 }} />
        <DepartmentQrButton projectId="12" department={{ id: 4, name: 'Pharmacy', document_count: 0 }} />
      </>,
    );
    const named = (label: string) => document.querySelector<HTMLElement>(`[aria-label="${label}"]`)!;
    expect(named('Print QR codes of Nursing').getAttribute('href')).toBe(
      '/api/projects/12/policy-management/qr-sheet?department_id=3',
    );
    expect(named('Print QR codes of Pharmacy').getAttribute('aria-disabled')).toBe('true');
    expect(named('Print QR codes of Pharmacy').getAttribute('href')).toBeNull();
  });
});
