import { z } from 'zod';

/** POST /api/projects/{id}/contact-us: a member writes to the project's admins. */
export const contactMessageCreateSchema = z.object({
  subject: z.string().trim().min(1, 'Enter a subject.').max(200, 'Keep the subject under 200 characters.'),
  message: z.string().trim().min(1, 'Enter your message.').max(5000, 'Keep the message under 5,000 characters.'),
});

export const CONTACT_STATUSES = ['unread', 'read', 'archived'] as const;

export const contactMessageSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(CONTACT_STATUSES),
  created_at: z.string(),
  sender: z.object({ id: z.number().int().nullable(), name: z.string(), email: z.string() }),
  replied_at: z.string().nullable(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

/** GET /api/projects/{id}/contact-us-messages?box=inbox|archive (project admins and superadmins). */
export const contactInboxQuerySchema = z.object({ box: z.enum(['inbox', 'archive']).default('inbox') });
export const contactMessageListSchema = z.object({ messages: z.array(contactMessageSchema), unread: z.number().int() });

/** PATCH /api/projects/{id}/contact-us-messages/{mid}. */
export const contactMessageUpdateSchema = z.object({ status: z.enum(CONTACT_STATUSES) });
/** POST /api/projects/{id}/contact-us-messages/{mid}/reply: emailed to the sender from the portal. */
export const contactReplySchema = z.object({
  message: z.string().trim().min(1, 'Enter your reply.').max(5000, 'Keep the reply under 5,000 characters.'),
});
