import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '../test/render';
import { Captcha, type CaptchaHandle } from './Captcha';

/** Stands in for the ALTCHA element: the real one needs Web Crypto workers, which jsdom lacks. */
const resets = vi.fn();
vi.mock('./altcha-widget', () => {
  if (!customElements.get('altcha-widget')) {
    customElements.define(
      'altcha-widget',
      class extends HTMLElement {
        reset() {
          resets();
        }
      },
    );
  }
  return {};
});

async function mount(error?: string) {
  const onVerified = vi.fn();
  const onCleared = vi.fn();
  const ref = createRef<CaptchaHandle>();
  await render(
    <Captcha
      ref={ref}
      challengeUrl="/api/public/captcha/challenge"
      onVerified={onVerified}
      onCleared={onCleared}
      error={error}
    />,
  );
  await waitFor(() => expect(document.querySelector('altcha-widget')).not.toBeNull());
  return { onVerified, onCleared, ref, widget: document.querySelector('altcha-widget')! };
}

describe('Captcha', () => {
  it('loads the widget lazily and points it at the challenge URL', async () => {
    const { widget } = await mount();
    expect(widget.getAttribute('challenge')).toBe('/api/public/captcha/challenge');
    expect(widget.getAttribute('auto')).toBe('onfocus');
  });

  it('passes the payload on when the widget is verified, and clears it when it expires or fails', async () => {
    const { widget, onVerified, onCleared } = await mount();
    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verifying', payload: null } }));
    expect(onCleared).not.toHaveBeenCalled();

    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'cGF5bG9hZA==' } }));
    expect(onVerified).toHaveBeenCalledWith('cGF5bG9hZA==');

    widget.dispatchEvent(new CustomEvent('expired'));
    expect(onCleared).toHaveBeenCalledTimes(1);
    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'error', payload: null } }));
    expect(onCleared).toHaveBeenCalledTimes(2);
  });

  it('reset() resets the widget and clears the payload', async () => {
    const { ref, onCleared } = await mount();
    resets.mockClear();
    ref.current!.reset();
    expect(resets).toHaveBeenCalledTimes(1);
    expect(onCleared).toHaveBeenCalled();
  });

  it('shows a validation message as an alert tied to the widget', async () => {
    const { widget } = await mount('Please complete the captcha.');
    const alert = document.querySelector('[role="alert"]')!;
    expect(alert.textContent).toBe('Please complete the captcha.');
    expect(widget.getAttribute('aria-describedby')).toBe(alert.id);
  });
});
