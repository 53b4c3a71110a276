import { z } from 'zod';

/** SPEC section 3 "Notification". */
export const notificationSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  link: z.string().nullable(),
  project_name: z.string().nullable(),
  /** Which project it is about (null for notices to superadmins about no project); the live stream filters on it. */
  project_id: z.number().int().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListSchema = z.object({ notifications: z.array(notificationSchema) });
