import { MESSAGES, type Reauthentication, reauthenticationSchema } from '@portal/shared';
import { useCallback, useRef, useState } from 'react';
import { ApiError } from './api';

/** The sensitive call: without a password first, then with the one the user typed after a 423. */
export type ConfirmedAction = (password?: string) => Promise<void>;

/** What the 423 said: its message and how this user can confirm (password, signing in again, or both). */
export interface ConfirmationRequest {
  message: string;
  how: Reauthentication;
}

export interface PasswordConfirmation {
  /**
   * Runs `action`; on 423 asks the user (PasswordConfirmModal) and runs it again with the password. Resolves true
   * once it went through, false when the user cancelled; rejects with any other failure, of either attempt.
   */
  run: (action: ConfirmedAction) => Promise<boolean>;
  /** Props for PasswordConfirmModal. */
  modal: {
    request: ConfirmationRequest | null;
    onSubmit: (password: string) => Promise<void>;
    onCancel: () => void;
  };
}

/**
 * The server answers 423 when neither a sign-in nor a password confirmation happened in the last 10 minutes (turning
 * two-factor on, off or resetting it, new recovery codes; issue 29).
 */
export function isPasswordConfirmationRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 423;
}

/** The 423's request; an answer without details (an older server) asks for the password, as it always did. */
export function confirmationRequestOf(error: ApiError): ConfirmationRequest {
  const body = (error.body ?? {}) as { details?: { reauthenticate?: unknown } };
  const how = reauthenticationSchema.safeParse(body.details?.reauthenticate);
  return {
    message: error.message || MESSAGES.passwordConfirmationRequired,
    how: how.success ? how.data : { password: true, sso: null },
  };
}

/**
 * A wrong password (a 422 naming no other field) or still no confirmation: the modal stays open and says so. A 422
 * about another field (the two-factor code) belongs to the screen's own form.
 */
function staysInModal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 423) return true;
  const errors = (error.body as { errors?: Record<string, unknown> } | null)?.errors ?? {};
  return error.status === 422 && Object.keys(errors).every((field) => field === 'password');
}

interface Pending {
  action: ConfirmedAction;
  request: ConfirmationRequest;
  settle: (done: boolean) => void;
  fail: (error: unknown) => void;
}

export function usePasswordConfirmation(): PasswordConfirmation {
  const [pending, setPending] = useState<Pending | null>(null);
  // The modal's callbacks read the current request even between a state change and the next render.
  const current = useRef<Pending | null>(null);
  const open = useCallback((next: Pending | null) => {
    current.current = next;
    setPending(next);
  }, []);

  const run = useCallback(
    async (action: ConfirmedAction) => {
      try {
        await action();
        return true;
      } catch (error) {
        if (!(error instanceof ApiError) || !isPasswordConfirmationRequired(error)) throw error;
        return new Promise<boolean>((settle, fail) => {
          open({ action, request: confirmationRequestOf(error), settle, fail });
        });
      }
    },
    [open],
  );

  const onSubmit = useCallback(
    async (password: string) => {
      const asked = current.current;
      if (!asked) return;
      try {
        await asked.action(password);
      } catch (error) {
        // A wrong password goes back to the modal, which shows it and stays open; anything else is the caller's.
        if (staysInModal(error)) throw error;
        open(null);
        asked.fail(error);
        return;
      }
      open(null);
      asked.settle(true);
    },
    [open],
  );

  const onCancel = useCallback(() => {
    current.current?.settle(false);
    open(null);
  }, [open]);

  return { run, modal: { request: pending?.request ?? null, onSubmit, onCancel } };
}
