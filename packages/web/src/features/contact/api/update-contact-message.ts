import { type ContactMessage, contactMessageSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { contactMessagesKey, contactMessagesPath } from './get-contact-messages';
import { mergeContactMessage } from './merge-contact-message';

export type ContactStatus = ContactMessage['status'];

/** PATCH /api/projects/{id}/contact-us-messages/{mid} { status }: read, unread (also restores), archived. */
export function updateContactMessage(projectId: string, id: number, status: ContactStatus): Promise<ContactMessage> {
  return apiFetch(`${contactMessagesPath(projectId)}/${id}`, {
    method: 'PATCH',
    body: { status },
    schema: contactMessageSchema,
  });
}

export function useUpdateContactMessage(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: ContactStatus }) => updateContactMessage(projectId, id, status),
    onSuccess: (message) => mergeContactMessage(queryClient, projectId, message),
    // A change can move a message between the boxes and changes the unread count: both boxes load again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactMessagesKey(projectId) }),
  });
}
