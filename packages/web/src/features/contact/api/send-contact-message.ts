import type { contactMessageCreateSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api';

export type ContactMessageCreate = z.output<typeof contactMessageCreateSchema>;

const createdSchema = z.object({ id: z.number().int() });

/** POST /api/projects/{id}/contact-us { subject, message } -> 201 { id }: stored, and the project's admins told. */
export function sendContactMessage(projectId: string, message: ContactMessageCreate): Promise<{ id: number }> {
  return apiFetch(`/api/projects/${projectId}/contact-us`, { method: 'POST', body: message, schema: createdSchema });
}

export function useSendContactMessage(projectId: string) {
  return useMutation({ mutationFn: (message: ContactMessageCreate) => sendContactMessage(projectId, message) });
}
