import { Box, Loader, Text } from '@mantine/core';
import type {} from 'altcha/types/react';
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';

export interface CaptchaHandle {
  /** Clears the solution: the user must solve a new challenge (a solution is accepted only once). */
  reset: () => void;
}

export interface CaptchaProps {
  /** Where the widget fetches its challenge (from GET /api/public/config). */
  challengeUrl: string;
  /** The payload to send as `g-recaptcha-response` (or `captcha`). */
  onVerified: (payload: string) => void;
  /** The solution is gone (expired, failed or reset): the form must not send the old payload. */
  onCleared: () => void;
  /** A validation message shown under the widget, e.g. 'Please complete the captcha.' */
  error?: string | null;
  /** Id of the error text, for the form's own references. */
  id?: string;
  ref?: Ref<CaptchaHandle>;
}

type WidgetElement = HTMLElementTagNameMap['altcha-widget'];

/**
 * Human verification with the self-hosted ALTCHA widget (proof of work, no third party). Tests replace this
 * component with a stub (src/test/captcha-stub.tsx): jsdom has no Web Crypto workers.
 */
export function Captcha({ challengeUrl, onVerified, onCleared, error, id = 'captcha', ref }: CaptchaProps) {
  const widget = useRef<WidgetElement | null>(null);
  const [ready, setReady] = useState(
    () => typeof customElements !== 'undefined' && !!customElements.get('altcha-widget'),
  );
  const callbacks = useRef({ onVerified, onCleared });
  callbacks.current = { onVerified, onCleared };

  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    import('./altcha-widget').then(
      () => !cancelled && setReady(true),
      () => !cancelled && setReady(true),
    );
    return () => {
      cancelled = true;
    };
  }, [ready]);

  useEffect(() => {
    const element = widget.current;
    if (!ready || !element) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state?: string; payload?: string | null }>).detail ?? {};
      if (state === 'verified' && payload) callbacks.current.onVerified(payload);
      else if (state !== 'verifying') callbacks.current.onCleared();
    };
    const onVerifiedEvent = (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: string }>).detail?.payload;
      if (payload) callbacks.current.onVerified(payload);
    };
    const onExpired = () => callbacks.current.onCleared();
    element.addEventListener('statechange', onState);
    element.addEventListener('verified', onVerifiedEvent);
    element.addEventListener('expired', onExpired);
    return () => {
      element.removeEventListener('statechange', onState);
      element.removeEventListener('verified', onVerifiedEvent);
      element.removeEventListener('expired', onExpired);
    };
  }, [ready]);

  useImperativeHandle(
    ref,
    () => ({
      reset: () => {
        widget.current?.reset?.();
        callbacks.current.onCleared();
      },
    }),
    [],
  );

  const errorId = `${id}-error`;
  return (
    <Box>
      {ready ? (
        <altcha-widget
          ref={widget}
          challenge={challengeUrl}
          auto="onfocus"
          aria-describedby={error ? errorId : undefined}
        />
      ) : (
        <Box h={74} display="flex" style={{ alignItems: 'center' }} role="status" aria-label="Loading the captcha">
          <Loader size="sm" />
        </Box>
      )}
      {error && (
        <Text id={errorId} role="alert" c="red.8" size="sm" mt={4}>
          {error}
        </Text>
      )}
    </Box>
  );
}
