import type { PermissionApp } from '@portal/shared';
import { AppError } from '../lib/errors.js';
import type { AppActor } from './app-access.js';
import { DEFAULT_RULES } from './permission-defaults.js';

/** What the record rule tests share: what authorize throws, and a person of project 1 in an app. */

/** What `run` (an authorize) throws, as status and message; null when it lets the actor through. */
export const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? { status: error.status, message: error.message } : error;
  }
  return null;
};

/** User 5 of project 1 with `role` in `app`, under the app's default permission matrix. */
export const appActor = (app: PermissionApp, role: string | null, facts: Partial<AppActor> = {}): AppActor => ({
  userId: 5,
  projectId: 1,
  isSuperadmin: false,
  role,
  rules: DEFAULT_RULES[app],
  ip: null,
  requestId: null,
  ...facts,
});
