import { useCallback, useState } from 'react';
import { ApiError } from '../../../lib/api';

type Action = (password?: string) => Promise<void>;

export interface PasswordConfirmation {
  /** Runs `action` without a password; on 423 asks for the password and runs it again with it. */
  run: (action: Action) => Promise<void>;
  /** Props for PasswordConfirmModal. */
  modal: {
    opened: boolean;
    onSubmit: (password: string) => Promise<void>;
    onCancel: () => void;
  };
}

/** The server answers 423 when the password was not confirmed in the last 15 minutes (issue 3, two-factor). */
export function isPasswordConfirmationRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 423;
}

export function usePasswordConfirmation(): PasswordConfirmation {
  const [pending, setPending] = useState<Action | null>(null);

  const run = useCallback(async (action: Action) => {
    try {
      await action();
    } catch (error) {
      if (!isPasswordConfirmationRequired(error)) throw error;
      setPending(() => action);
    }
  }, []);

  const onSubmit = useCallback(
    async (password: string) => {
      if (!pending) return;
      // Errors (a wrong password) go back to the modal, which shows them and stays open.
      await pending(password);
      setPending(null);
    },
    [pending],
  );

  const onCancel = useCallback(() => setPending(null), []);
  return { run, modal: { opened: pending !== null, onSubmit, onCancel } };
}
