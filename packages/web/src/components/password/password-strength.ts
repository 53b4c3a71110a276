import {
  evaluatePassword,
  evaluationProblems,
  type PasswordEvaluation,
  weakPasswordMessage as sharedWeakPasswordMessage,
} from '@portal/shared';
import { useEffect, useMemo, useRef, useState } from 'react';

export type { PasswordEvaluation } from '@portal/shared';

/** Wait after the last keystroke before asking the worker for the full evaluation. */
export const FULL_CHECK_DELAY_MS = 150;

/**
 * 'Password does not meet security requirements: ...' for an evaluation: the shared message of the server and the
 * schemas, with the same problems as the server's `passwordProblems` (`evaluationProblems`).
 */
export function weakPasswordMessage(evaluation: PasswordEvaluation): string {
  return sharedWeakPasswordMessage(evaluationProblems(evaluation));
}

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('./password-strength.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

/**
 * The SPEC section 5 evaluation of `password`. At once: the shared rules without word lists (fast; this thread
 * never loads the dictionaries, so `evaluatePassword` here stays cheap). Shortly after typing stops: the full
 * evaluation from a worker that loads the zxcvbn dictionaries lazily, so the login page never downloads them.
 * Where workers are unavailable (tests) the quick evaluation is all there is; the server checks again anyway.
 */
export function usePasswordEvaluation(password: string): { evaluation: PasswordEvaluation; checking: boolean } {
  const quick = useMemo(() => evaluatePassword(password), [password]);
  const [full, setFull] = useState<{ password: string; evaluation: PasswordEvaluation } | null>(null);
  const worker = useRef<Worker | null>(null);
  const [available, setAvailable] = useState(false);
  const nextId = useRef(0);

  useEffect(() => {
    const started = startWorker();
    worker.current = started;
    setAvailable(started !== null);
    if (!started) return;
    started.onmessage = (event: MessageEvent<{ password: string; evaluation: PasswordEvaluation }>) => {
      setFull({ password: event.data.password, evaluation: event.data.evaluation });
    };
    started.onerror = () => {
      worker.current = null;
      setAvailable(false);
    };
    return () => {
      started.terminate();
      worker.current = null;
    };
  }, []);

  useEffect(() => {
    if (!available || !password) return;
    const timer = setTimeout(() => {
      nextId.current += 1;
      worker.current?.postMessage({ id: nextId.current, password });
    }, FULL_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [password, available]);

  const fresh = full !== null && full.password === password;
  return { evaluation: fresh ? full.evaluation : quick, checking: available && !!password && !fresh };
}
