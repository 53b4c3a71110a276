/**
 * Evaluates passwords with the full shared rules (zxcvbn dictionaries included) off the main thread: one
 * evaluation of a long password takes up to a second, which would freeze typing. Only the newest request is
 * answered; requests that arrive while one is being evaluated replace each other.
 */
import { evaluatePassword, loadPasswordDictionaries } from '@portal/shared';

interface Request {
  id: number;
  password: string;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage: (message: unknown) => void;
};

const ready = loadPasswordDictionaries();
let latest: Request | null = null;
let busy = false;

async function drain(): Promise<void> {
  busy = true;
  try {
    await ready;
  } catch {
    // Without dictionaries the evaluation still applies every other rule.
  }
  while (latest) {
    const request = latest;
    latest = null;
    scope.postMessage({ id: request.id, password: request.password, evaluation: evaluatePassword(request.password) });
    // Let messages queued during the evaluation arrive, so only the newest of them is evaluated next.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  busy = false;
}

scope.onmessage = (event) => {
  latest = event.data;
  if (!busy) void drain();
};
