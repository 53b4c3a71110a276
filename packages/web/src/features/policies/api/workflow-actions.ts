import {
  type attestBodySchema,
  type DocumentWorkflow,
  type declineBodySchema,
  documentWorkflowSchema,
  type reviewDecisionBodySchema,
  type sendToReviewBodySchema,
  type signBodySchema,
  type withdrawBodySchema,
} from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { documentPath } from './get-document';
import { workflowKey } from './get-workflow';
import { invalidatePolicies } from './keys';

/** One step of the workflow: the call's path segment and its body (as sent, before server defaults). */
export type WorkflowStep =
  | { step: 'send-to-review'; body: z.input<typeof sendToReviewBodySchema> }
  | { step: 'withdraw'; body: z.input<typeof withdrawBodySchema> }
  | { step: 'review'; body: z.input<typeof reviewDecisionBodySchema> }
  | { step: 'sign'; body: z.input<typeof signBodySchema> }
  | { step: 'decline'; body: z.input<typeof declineBodySchema> }
  | { step: 'attest'; body: z.input<typeof attestBodySchema> };

/**
 * POST .../documents/{documentId}/{send-to-review|withdraw|review|sign|decline|attest}: answers the document's
 * workflow after the step. Errors: 400 with field messages (`comment`, `password`, `code`), 422 for a wrong
 * password or code, 409 when the version changed meanwhile, 429 after too many attempts.
 */
export function runWorkflowStep(
  projectId: string,
  documentId: string | number,
  { step, body }: WorkflowStep,
): Promise<DocumentWorkflow> {
  return apiFetch(`${documentPath(projectId, documentId)}/${step}`, {
    method: 'POST',
    body,
    schema: documentWorkflowSchema,
  });
}

/**
 * Every workflow step of one document. On success the answer replaces the cached workflow and everything of the
 * project's policies is refreshed: the document (its status), the lists, the tasks and the dashboard. A 409 (the
 * version changed meanwhile) refreshes them too, so the screen shows where things stand now.
 */
export function useWorkflowStep(projectId: string, documentId: string | number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (step: WorkflowStep) => runWorkflowStep(projectId, documentId, step),
    onSuccess: (workflow) => {
      queryClient.setQueryData(workflowKey(projectId, documentId), workflow);
      return invalidatePolicies(queryClient, projectId);
    },
    onError: (error) => {
      if ((error as { status?: number }).status === 409) void invalidatePolicies(queryClient, projectId);
    },
  });
}
