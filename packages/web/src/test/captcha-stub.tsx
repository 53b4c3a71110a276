import { useImperativeHandle } from 'react';
import { vi } from 'vitest';
import type { CaptchaProps } from '../components/Captcha';

/**
 * Stands in for the ALTCHA widget (jsdom has no Web Crypto workers). Use it with
 * `vi.mock('<path>/components/Captcha', async () => (await import('<path>/test/captcha-stub')).captchaModule)`.
 * The "Solve the captcha" button plays the widget's `verified` event; `captchaResets` counts `reset()` calls.
 */
export const captchaResets = vi.fn();
export const STUB_PAYLOAD = 'stub-altcha-payload';

export function StubCaptcha({ onVerified, onCleared, error, challengeUrl, ref }: CaptchaProps) {
  useImperativeHandle(
    ref,
    () => ({
      reset: () => {
        captchaResets();
        onCleared();
      },
    }),
    [onCleared],
  );
  return (
    <div data-testid="captcha" data-challenge-url={challengeUrl}>
      <button type="button" onClick={() => onVerified(STUB_PAYLOAD)}>
        Solve the captcha
      </button>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

export const captchaModule = { Captcha: StubCaptcha };
