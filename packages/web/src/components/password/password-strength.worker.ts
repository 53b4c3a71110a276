/**
 * Evaluates passwords with the full shared rules (zxcvbn dictionaries included) off the main thread: loading the
 * dictionaries takes a moment and one evaluation of a long password tens of milliseconds, which would hold up typing.
 * Only the newest request is answered; requests that arrive while one is being evaluated replace each other. The
 * answer is `evaluateFull` (evaluate-full.ts), the same function the server's checks go through.
 */
import { loadPasswordDictionaries } from '@portal/shared';
import { evaluateFull } from './evaluate-full';

interface Request {
  id: number;
  password: string;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage: (message: unknown) => void;
};

// Start loading at once, before the first request arrives.
void loadPasswordDictionaries().catch(() => {});
let latest: Request | null = null;
let busy = false;

async function drain(): Promise<void> {
  busy = true;
  // Wait for the dictionaries before taking a request, so that requests made meanwhile replace each other.
  await loadPasswordDictionaries().catch(() => {});
  while (latest) {
    const request = latest;
    latest = null;
    const evaluation = await evaluateFull(request.password);
    scope.postMessage({ id: request.id, password: request.password, evaluation });
    // Let messages queued during the evaluation arrive, so only the newest of them is evaluated next.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  busy = false;
}

scope.onmessage = (event) => {
  latest = event.data;
  if (!busy) void drain();
};
