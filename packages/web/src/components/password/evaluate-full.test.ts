import {
  evaluatePassword,
  evaluationProblems,
  loadPasswordDictionaries,
  type PasswordEvaluation,
  passwordCorpus,
  passwordProblems,
  weakPasswordMessage as serverMessage,
} from '@portal/shared';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { evaluateFull } from './evaluate-full';
import { weakPasswordMessage } from './password-strength';

/** The guessable corpus, random passwords and the examples: what the meter and the server must agree on. */
const corpus = [
  ...passwordCorpus.guessablePasswords().map(({ password }) => password),
  ...passwordCorpus.randomPasswords(100, 2025),
  ...passwordCorpus.RANDOM_EXAMPLES,
];

beforeAll(async () => {
  await loadPasswordDictionaries();
}, 30_000);

describe('evaluateFull (the password-strength worker) and the server', { timeout: 60_000 }, () => {
  it('give the same answer on the whole corpus', async () => {
    expect(corpus.length).toBeGreaterThan(400);
    let refused = 0;
    for (const password of corpus) {
      const meter = await evaluateFull(password);
      expect(meter.dictionaryChecked, password).toBe(true);
      // The same evaluation as the shared function...
      expect(meter, password).toEqual(evaluatePassword(password));
      // ... and the server's check (passwordProblems, used by the routes and the zod schemas) agrees with it.
      const problems = passwordProblems(password);
      expect(meter.valid, password).toBe(problems.length === 0);
      expect(evaluationProblems(meter), password).toEqual(problems);
      if (!meter.valid) {
        refused++;
        expect(weakPasswordMessage(meter), password).toBe(serverMessage(problems));
      }
    }
    // Every guessable password is among the refused ones.
    expect(refused).toBeGreaterThanOrEqual(passwordCorpus.guessablePasswords().length);
  });
});

describe('password-strength.worker', { timeout: 60_000 }, () => {
  it('answers each request with the full evaluation', async () => {
    const answers: { id: number; password: string; evaluation: PasswordEvaluation }[] = [];
    let answered: (() => void) | undefined;
    const scope = {
      onmessage: null as ((event: MessageEvent) => void) | null,
      postMessage: (message: (typeof answers)[number]) => {
        answers.push(message);
        answered?.();
      },
    };
    vi.stubGlobal('self', scope);
    await import('./password-strength.worker');
    expect(scope.onmessage).toBeTypeOf('function');

    const sample = [...passwordCorpus.RANDOM_EXAMPLES, 'MyDogRex2019!!', 'Tr0ub4dor&3Zq', 'Zebra123Moon!x', 'short'];
    for (const [index, password] of sample.entries()) {
      const reply = new Promise<void>((resolve) => {
        answered = resolve;
      });
      scope.onmessage?.(new MessageEvent('message', { data: { id: index + 1, password } }));
      await reply;
      expect(answers.at(-1)).toEqual({ id: index + 1, password, evaluation: evaluatePassword(password) });
    }
    expect(answers.map(({ evaluation }) => evaluation.valid)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
