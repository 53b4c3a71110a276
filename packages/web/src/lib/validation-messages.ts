import { validationMessage } from '@portal/shared';

/**
 * Every form's validation messages in the portal's words (issue 32, shared validation-messages.ts) wherever a schema
 * gives none. zod reads its configuration from this global, which zod's own `config()` writes and public/zod-jitless.js
 * also sets; writing it directly keeps zod off the login page (decision record 030: importing `config` from zod
 * brought 4 KB gzipped). validation-messages.test.ts fails if zod stops reading it.
 */
export function installValidationMessages(): void {
  const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.customError = validationMessage;
}
