import { evaluatePassword, loadPasswordDictionaries, type PasswordEvaluation } from '@portal/shared';

/**
 * The full evaluation the password-strength worker answers with: the shared `evaluatePassword` (the function behind
 * the server's `passwordProblems`) once the zxcvbn dictionaries are loaded. If they cannot be loaded, the evaluation
 * still applies every other rule (`dictionaryChecked: false`), and the next call tries to load them again; the server
 * checks with the dictionaries in any case.
 */
export async function evaluateFull(password: string): Promise<PasswordEvaluation> {
  try {
    await loadPasswordDictionaries();
  } catch {
    // Evaluated without the dictionaries below.
  }
  return evaluatePassword(password);
}
