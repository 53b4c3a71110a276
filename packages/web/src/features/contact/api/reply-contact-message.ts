import { type ContactMessage, contactMessageSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { contactMessagesKey, contactMessagesPath } from './get-contact-messages';
import { mergeContactMessage } from './merge-contact-message';

/** POST /api/projects/{id}/contact-us-messages/{mid}/reply { message }: emailed to the sender; answers the message. */
export function replyToContactMessage(projectId: string, id: number, message: string): Promise<ContactMessage> {
  return apiFetch(`${contactMessagesPath(projectId)}/${id}/reply`, {
    method: 'POST',
    body: { message },
    schema: contactMessageSchema,
  });
}

export function useReplyToContactMessage(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: number; message: string }) => replyToContactMessage(projectId, id, message),
    onSuccess: (message) => {
      mergeContactMessage(queryClient, projectId, message);
      return queryClient.invalidateQueries({ queryKey: contactMessagesKey(projectId) });
    },
  });
}
