import { z } from 'zod';
import { APP_CODES, type AppCode } from '../roles.js';

/** The apps as people read their names (the project page's cards and the sentences below them). */
export const APP_NAMES: Record<AppCode, string> = {
  monitoring: 'Monitoring',
  policy_management: 'Policy Management',
  chart_review: 'Chart Review',
  standards: 'Standards',
  admin: 'Admin',
  policy_generator: 'Policy Generator',
};

/**
 * Why an active app of a project cannot be opened by a person (GET /api/projects/{id}/my-apps; the server's
 * policies/project-apps.ts decides): no main role in it (monitoring, policy management, chart review), no standards
 * role, not a project administrator (Admin), and for the policy generator, which works inside policy management: no
 * policy management role, a role the generator's section does not allow, or policy management switched off.
 */
export const APP_UNAVAILABLE_CAUSES = [
  'no_role',
  'no_standards_role',
  'admins_only',
  'needs_policy_role',
  'policy_role_excludes',
  'needs_policy_management',
] as const;
export type AppUnavailableCause = (typeof APP_UNAVAILABLE_CAUSES)[number];

/** "A", "A and B", "A, B and C". */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The sentence that explains why these apps cannot be opened, all for the same cause: the server's reason for one
 * app, and the project page's one sentence for several ("You have no role in Monitoring and Chart Review yet...").
 */
export function appsUnavailableReason(cause: AppUnavailableCause, apps: readonly AppCode[]): string {
  const names = listOf(apps.map((app) => APP_NAMES[app]));
  const one = apps.length <= 1;
  switch (cause) {
    case 'no_role':
      return `You have no role in ${names} yet. A project administrator can give you one in Manage Users.`;
    case 'no_standards_role':
      return `You have no role in ${names} yet. A project administrator can give you one in Standards Users.`;
    case 'admins_only':
      return `${names} ${one ? 'is' : 'are'} only for the project's administrators.`;
    case 'needs_policy_role':
      return `${names} ${one ? 'needs' : 'need'} a role in Policy Management, which you do not have yet. A project administrator can give you one in Manage Users.`;
    case 'policy_role_excludes':
      return `Your role in Policy Management does not include ${names}. A project administrator can change it in Manage Users.`;
    case 'needs_policy_management':
      return `${names} ${one ? 'needs' : 'need'} Policy Management, which is not switched on for this project.`;
  }
}

/** One active app of the project, for the signed-in user. */
export const myAppSchema = z.object({
  code: z.enum(APP_CODES),
  /** Whether the user can open it (superadmins every one their gates let through). */
  usable: z.boolean(),
  /** Why not, as a sentence for the user (appsUnavailableReason); null when usable. */
  reason: z.string().nullable(),
  /** Why not, for grouping several apps into one sentence; null when usable. */
  cause: z.enum(APP_UNAVAILABLE_CAUSES).nullable(),
});
export type MyApp = z.infer<typeof myAppSchema>;

/** GET /api/projects/{id}/my-apps: the project's active apps, in APP_CODES order, and whether the user can open each. */
export const myAppsSchema = z.object({ apps: z.array(myAppSchema) });
export type MyApps = z.infer<typeof myAppsSchema>;
