import { z } from 'zod';
import { APP_CODES } from '../roles.js';

const appCode = z.enum(APP_CODES);

/** GET /api/member/projects and /super/projects: the projects the user may open (all active ones for a superadmin). */
export const memberProjectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  active_apps: z.array(appCode),
});
export const memberProjectsSchema = z.object({ projects: z.array(memberProjectSchema) });
export type MemberProject = z.infer<typeof memberProjectSchema>;

/** GET /api/projects/{id} and /super/projects/{id}. */
export const projectSchema = memberProjectSchema.extend({
  facility_name: z.string(),
  is_active: z.boolean(),
  /** The signed-in user's role in this project (null for a superadmin who is not a member). */
  project_role: z.enum(['admin', 'simple']).nullable(),
  /** Where the facility's logo is served (GET /api/projects/{id}/logo), or null. */
  logo_url: z.string().nullable().default(null),
});
export type Project = z.infer<typeof projectSchema>;

/** GET /api/projects/{id}/active-apps: an array of app codes (SPEC section 7). */
export const activeAppsSchema = z.array(appCode);
/** GET /api/projects/{id}/check-admin. */
export const checkAdminSchema = z.object({ is_admin: z.boolean() });
