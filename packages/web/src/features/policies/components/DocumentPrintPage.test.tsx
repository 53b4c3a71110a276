import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { notCurrentText, watermarkImage } from './DocumentPrintPage';
import { BASE, DOC_API, detail, openDocument, sessionRoutes, V1, withDraft } from './document-test-helpers';

const PRINT = `${BASE}/documents/5/print`;

function server(doc = detail()) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${DOC_API}`]: jsonResponse(doc),
    [`GET ${DOC_API}/versions/101`]: jsonResponse(V1),
    [`GET ${DOC_API}/versions/999`]: jsonResponse({ message: 'Not found.' }, 404),
  });
}

const watermark = () => document.querySelector<HTMLElement>('.policy-watermark');

describe('DocumentPrintPage', () => {
  it('lays out the current version without a watermark', async () => {
    server();
    await openDocument(`${PRINT}?version=102`);
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Hand hygiene'));
    const sheet = document.querySelector('.policy-print-sheet')!;
    expect(text(sheet)).toContain('4.2');
    expect(text(sheet)).toContain('Nursing (NUR)');
    expect(text(sheet)).toContain('2 (Current)');
    expect(text(sheet)).toContain('January 15, 2026');
    expect(text(sheet)).toContain('January 15, 2027');
    expect(sheet.querySelector('.policy-content td')?.textContent).toBe('Nurses');
    expect(watermark()).toBeNull();
    expect(text()).not.toContain('NOT CURRENT');
    expect(document.title).toContain('4.2 Hand hygiene – version 2');
    expect(text(sheet)).toContain('Approved');
    expect(text(sheet)).toContain('January 10, 2026');
    const footer = text(sheet.querySelector('.policy-print-footer')!);
    expect(footer).toContain('Printed copies are not controlled. Printed ');
    expect(footer).toContain(`The current version is always at ${window.location.origin}/p/12/4.2`);
  });

  it('prints the current version when no version is named', async () => {
    server();
    await openDocument(PRINT);
    await waitFor(() => expect(text()).toContain('Wash hands before and after patient contact.'));
    expect(watermark()).toBeNull();
  });

  it('marks a superseded version NOT CURRENT with a diagonal watermark', async () => {
    const api = server();
    await openDocument(`${PRINT}?version=101`);
    await waitFor(() => expect(text()).toContain('Wash hands often.'));
    expect(api.calls(`GET ${DOC_API}/versions/101`)).toHaveLength(1);
    expect(watermark()).not.toBeNull();
    expect(watermark()!.dataset.watermark).toBe('NOT CURRENT – version 1');
    expect(watermark()!.getAttribute('aria-hidden')).toBe('true');
    expect(watermark()!.style.getPropertyValue('--policy-watermark')).toContain('data:image/svg+xml');
    // Said in words too, for screen readers and for copies where backgrounds are not printed.
    expect(text(document.querySelector('.policy-print-sheet')!)).toContain('NOT CURRENT – version 1');
    expect(text()).toContain('1 (Superseded)');
    // An old version's copy does not point at the current one as if it were it.
    expect(text(document.querySelector('.policy-print-footer')!)).not.toContain('current version is always at');
  });

  it('marks the draft NOT CURRENT as well', async () => {
    server(withDraft());
    await openDocument(`${PRINT}?version=103`);
    await waitFor(() => expect(text()).toContain('Draft text about alcohol rub.'));
    expect(watermark()?.dataset.watermark).toBe('NOT CURRENT – version 3');
    expect(text()).toContain('Not yet effective');
  });

  it('puts the watermark text, rotated, into the tile', () => {
    const svg = decodeURIComponent(watermarkImage(notCurrentText(4)));
    expect(svg).toContain('NOT CURRENT – version 4');
    expect(svg).toContain('rotate(-30');
    expect(decodeURIComponent(watermarkImage('<b>&'))).toContain('&#60;b&#62;&#38;');
  });

  it('calls window.print from the Print button', async () => {
    server();
    const print = vi.fn();
    vi.stubGlobal('print', print);
    await openDocument(`${PRINT}?version=102`);
    await waitFor(() => expect(text()).toContain('Wash hands before and after patient contact.'));
    expect(getControl('Print').closest('.policy-print-hide')).not.toBeNull();
    expect(getControl('← Back to the policy').getAttribute('href')).toBe(`${BASE}/documents/5`);
    await click(getControl('Print'));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says so when the version does not exist', async () => {
    server();
    await openDocument(`${PRINT}?version=999`);
    await waitFor(() => expect(text()).toContain('This version does not exist.'));
    expect(document.querySelector('h1')?.textContent).toBe('4.2 Hand hygiene');
    expect(document.querySelector('.policy-print-sheet')).toBeNull();
    expect(getControl('Print').hasAttribute('disabled')).toBe(true);
  });
});
