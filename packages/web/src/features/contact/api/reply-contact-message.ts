import { type ContactMessage, contactMessageSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
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
  return useApiMutation(
    ({ id, message }: { id: number; message: string }) => replyToContactMessage(projectId, id, message),
    (queryClient, message) => {
      mergeContactMessage(queryClient, projectId, message);
      return queryClient.invalidateQueries({ queryKey: contactMessagesKey(projectId) });
    },
  );
}
