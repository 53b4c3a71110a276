import { type ContactMessage, contactMessageListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';

export type { ContactMessage };
export type ContactBox = 'inbox' | 'archive';
export type ContactMessageList = z.infer<typeof contactMessageListSchema>;

export function contactMessagesPath(projectId: string): string {
  return `/api/projects/${projectId}/contact-us-messages`;
}

/** Every box of every project: what a change to one message makes stale. */
export const CONTACT_MESSAGES_KEY = ['contact-messages'] as const;

export function contactMessagesKey(projectId: string, box?: ContactBox) {
  return box ? ([...CONTACT_MESSAGES_KEY, projectId, box] as const) : ([...CONTACT_MESSAGES_KEY, projectId] as const);
}

/** GET /api/projects/{id}/contact-us-messages?box=inbox|archive (project admins; 403 for everyone else). */
export function getContactMessages(
  projectId: string,
  box: ContactBox,
  signal?: AbortSignal,
): Promise<ContactMessageList> {
  return apiFetch(`${contactMessagesPath(projectId)}?box=${box}`, { signal, schema: contactMessageListSchema });
}

export function contactMessagesQueryOptions(projectId: string, box: ContactBox) {
  return apiQuery(contactMessagesKey(projectId, box), (signal) => getContactMessages(projectId, box, signal));
}

export function useContactMessages(projectId: string, box: ContactBox) {
  return useQuery(contactMessagesQueryOptions(projectId, box));
}
