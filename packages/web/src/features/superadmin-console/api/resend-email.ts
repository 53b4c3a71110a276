import { emailLogDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { type EmailLogDetail, emailLogQueryOptions } from './get-email-log';
import { EMAIL_LOGS_KEY } from './get-email-logs';

/** POST /super/email-logs/{id}/resend: sends a failed email again; answers the email with its new status. */
export function resendEmail(id: number): Promise<EmailLogDetail> {
  return apiFetch(`/super/email-logs/${id}/resend`, { method: 'POST', schema: emailLogDetailSchema });
}

export function useResendEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendEmail,
    onSuccess: (email) => queryClient.setQueryData(emailLogQueryOptions(email.id).queryKey, email),
    // The list shows the new status and the dashboard the new count of failures.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...EMAIL_LOGS_KEY, 'list'] }),
        queryClient.invalidateQueries({ queryKey: ['super', 'dashboard'] }),
      ]),
  });
}
