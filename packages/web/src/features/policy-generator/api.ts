import {
  type AnswersInput,
  assistStatusSchema,
  type FacilityProfile,
  type FacilityProfileInput,
  facilityProfileSchema,
  type GenerateInput,
  type Generation,
  type GeneratorLookups,
  generateResultSchema,
  generationDetailSchema,
  generationListSchema,
  generatorLookupsSchema,
  type PreviewResult,
  type RefineInput,
  refineResultSchema,
  regenerateResultSchema,
  type TemplateBody,
  type TemplateDetail,
  type TemplateSummary,
  type TemplateVersion,
  templateDetailSchema,
  templateListSchema,
  templateVersionSchema,
} from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../lib/api';

/**
 * The policy generator's calls (docs/policy-generator.md): /api/projects/{id}/policy-generator/... Every query key
 * starts with `generatorKey(projectId)`, so a change refreshes the whole app of that project.
 */
export type {
  AnswersInput,
  FacilityProfile,
  FacilityProfileInput,
  GenerateInput,
  Generation,
  GeneratorLookups,
  PreviewResult,
  TemplateBody,
  TemplateDetail,
  TemplateSummary,
  TemplateVersion,
};

export function generatorKey(projectId: number) {
  return ['policy-generator', projectId] as const;
}

export function generatorPath(projectId: number): string {
  return `/api/projects/${projectId}/policy-generator`;
}

/** GET /profile: the facility profile (suggestions from the project until a project admin saves it). */
export function profileQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: [...generatorKey(projectId), 'profile'] as const,
    queryFn: ({ signal }) => apiFetch(`${generatorPath(projectId)}/profile`, { signal, schema: facilityProfileSchema }),
  });
}
export const useProfile = (projectId: number) => useQuery(profileQueryOptions(projectId));

/** PUT /profile (project admins). */
export function useSaveProfile(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FacilityProfileInput) =>
      apiFetch(`${generatorPath(projectId)}/profile`, { method: 'PUT', body, schema: facilityProfileSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: generatorKey(projectId) }),
  });
}

/** GET /lookups: departments (with the next number, reviewers, signers), policy users, what the caller may do. */
export function useLookups(projectId: number) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'lookups'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${generatorPath(projectId)}/lookups`, { signal, schema: generatorLookupsSchema }),
  });
}

/** GET /templates: the library's and the project's templates (drafts only for template editors). */
export function useTemplates(projectId: number) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'templates'] as const,
    queryFn: ({ signal }) => apiFetch(`${generatorPath(projectId)}/templates`, { signal, schema: templateListSchema }),
  });
}

/** GET /templates/{id}: versions, the published version and (for editors) the draft. */
export function useTemplate(projectId: number, templateId: number | null) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'templates', templateId ?? 0] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${generatorPath(projectId)}/templates/${templateId}`, { signal, schema: templateDetailSchema }),
    enabled: templateId !== null,
  });
}

/** GET /templates/{id}/versions/{versionId}: one version's content (the wizard pins it). */
export function useTemplateVersion(projectId: number, templateId: number | null, versionId: number | null) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'templates', templateId ?? 0, 'versions', versionId ?? 0] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${generatorPath(projectId)}/templates/${templateId}/versions/${versionId}`, {
        signal,
        schema: templateVersionSchema,
      }),
    enabled: templateId !== null && versionId !== null,
  });
}

function useGeneratorMutation<TInput, TResult>(
  projectId: number,
  call: (input: TInput) => Promise<TResult>,
): ReturnType<typeof useMutation<TResult, Error, TInput>> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: generatorKey(projectId) }),
  });
}

/** POST /templates {copy_of} | {title}: a project template (a copy of a library template, or a blank one). */
export function useCreateTemplate(projectId: number) {
  return useGeneratorMutation(projectId, (body: { copy_of: number } | { title: string }) =>
    apiFetch(`${generatorPath(projectId)}/templates`, { method: 'POST', body, schema: templateDetailSchema }),
  );
}

/** PUT /templates/{id}/draft: saves the draft (opens one from the published version when there is none). */
export function useSaveTemplateDraft(projectId: number, templateId: number) {
  return useGeneratorMutation(projectId, (body: TemplateBody) =>
    apiFetch(`${generatorPath(projectId)}/templates/${templateId}/draft`, {
      method: 'PUT',
      body,
      schema: templateDetailSchema,
    }),
  );
}

/** DELETE /templates/{id}/draft: discards the draft (a template never published goes with it). */
export function useDiscardTemplateDraft(projectId: number, templateId: number) {
  return useGeneratorMutation(projectId, () =>
    apiFetch(`${generatorPath(projectId)}/templates/${templateId}/draft`, { method: 'DELETE' }),
  );
}

/** POST /templates/{id}/publish {note}: the draft becomes the version the wizard uses. */
export function usePublishTemplate(projectId: number, templateId: number) {
  return useGeneratorMutation(projectId, (body: { note: string }) =>
    apiFetch(`${generatorPath(projectId)}/templates/${templateId}/publish`, {
      method: 'POST',
      body,
      schema: templateDetailSchema,
    }),
  );
}

/** POST /generate: a draft policy in policy management, with provenance and suggested standards links. */
export function useGenerate(projectId: number) {
  return useGeneratorMutation(projectId, (body: GenerateInput) =>
    apiFetch(`${generatorPath(projectId)}/generate`, { method: 'POST', body, schema: generateResultSchema }),
  );
}

/** GET /generations: the policies this project generated, newest first, with newer template versions flagged. */
export function useGenerations(projectId: number) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'generations'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${generatorPath(projectId)}/generations`, { signal, schema: generationListSchema }),
  });
}

/** GET /generations/{id}: one generation with its answers. */
export function useGeneration(projectId: number, generationId: number | null) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'generations', generationId ?? 0] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${generatorPath(projectId)}/generations/${generationId}`, { signal, schema: generationDetailSchema }),
    enabled: generationId !== null,
  });
}

/** POST /documents/{id}/regenerate: a new draft version from a newer template version, with its redline. */
export function useRegenerate(projectId: number) {
  return useGeneratorMutation(
    projectId,
    ({ documentId, ...body }: { documentId: number; template_version_id?: number; answers?: AnswersInput }) =>
      apiFetch(`${generatorPath(projectId)}/documents/${documentId}/regenerate`, {
        method: 'POST',
        body,
        schema: regenerateResultSchema,
      }),
  );
}

/** GET /assist: the writing assistant, or null when the operator has not configured one. */
export function useAssist(projectId: number) {
  return useQuery({
    queryKey: [...generatorKey(projectId), 'assist'] as const,
    queryFn: async ({ signal }) => {
      const status = await apiFetch(`${generatorPath(projectId)}/assist`, { signal, schema: assistStatusSchema });
      return status.enabled ? status : null;
    },
    staleTime: 5 * 60_000,
  });
}

export type RefineResult = z.infer<typeof refineResultSchema>;

/** POST /assist/refine: a suggested rewrite of (or addition to) one section, with its redline against its text. */
export function useRefine(projectId: number) {
  return useMutation({
    mutationFn: (body: RefineInput) =>
      apiFetch(`${generatorPath(projectId)}/assist/refine`, { method: 'POST', body, schema: refineResultSchema }),
  });
}

/** POST /assist/calls/{id}/decision: records whether the author took the suggestion. */
export function useAssistDecision(projectId: number) {
  return useMutation({
    mutationFn: ({ callId, accepted }: { callId: number; accepted: boolean }) =>
      apiFetch(`${generatorPath(projectId)}/assist/calls/${callId}/decision`, { method: 'POST', body: { accepted } }),
  });
}
