import { z } from 'zod';

/** GET /api/member/projects: the active projects the user belongs to (all active ones for a superadmin). */
export const memberProjectSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });
export const memberProjectsSchema = z.object({ projects: z.array(memberProjectSchema) });
export type MemberProject = z.infer<typeof memberProjectSchema>;
