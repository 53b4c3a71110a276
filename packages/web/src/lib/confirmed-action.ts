import { useState } from 'react';
import { toast } from 'sonner';
import { messageFor } from './api';

interface ConfirmedActionOptions<T> {
  run: (target: T) => Promise<unknown>;
  /** The toast once it is done. */
  done: (target: T) => string;
  /** The toast when it fails and the server gives no reason of its own. */
  failed: (target: T) => string;
}

/**
 * An action that first asks "are you sure?": `ask(target)` opens the question, `confirm` closes it and runs the
 * action, and a toast says how it went. `asking` is the target the question is about, or null when it is closed.
 */
export function useConfirmedAction<T>({ run, done, failed }: ConfirmedActionOptions<T>) {
  const [asking, setAsking] = useState<T | null>(null);

  async function confirm() {
    const target = asking;
    setAsking(null);
    if (target === null) return;
    try {
      await run(target);
      toast.success(done(target));
    } catch (error) {
      toast.error(messageFor(error, failed(target)));
    }
  }

  return { asking, ask: setAsking, cancel: () => setAsking(null), confirm: () => void confirm() };
}
