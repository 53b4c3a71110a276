import {
  type StdEcfrImport,
  type StdFramework,
  type StdFrameworkImport,
  stdEcfrImportedSchema,
  stdFrameworkListSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';

export type { StdFramework, StdFrameworkImport };

export function stdFrameworksKey(projectId: string) {
  return [...standardsKey(projectId), 'frameworks'] as const;
}

/** GET /frameworks: the built-in frameworks and the ones this project imported, with their chapters. */
export function stdFrameworksQueryOptions(projectId: string) {
  return apiQuery(stdFrameworksKey(projectId), (signal) =>
    apiFetch(`${standardsPath(projectId)}/frameworks`, { signal, schema: stdFrameworkListSchema }),
  );
}

export function useStdFrameworks(projectId: string, enabled = true) {
  return useQuery({ ...stdFrameworksQueryOptions(projectId), enabled });
}

/**
 * The id of the framework an import made, when the answer names it ({id} or {framework: {id}}); null otherwise.
 * The contract leaves the answer's shape open, so it is read with care.
 */
export function importedFrameworkId(answer: unknown): number | null {
  if (!answer || typeof answer !== 'object') return null;
  const direct = (answer as { id?: unknown }).id;
  if (typeof direct === 'number' && Number.isInteger(direct)) return direct;
  const nested = (answer as { framework?: { id?: unknown } }).framework?.id;
  return typeof nested === 'number' && Number.isInteger(nested) ? nested : null;
}

/** POST /frameworks/import: a framework from CSV -> the id of the new framework (when the answer gives it). */
export function useImportFramework(projectId: string) {
  return useInvalidatingMutation(
    async (body: StdFrameworkImport) =>
      importedFrameworkId(await apiFetch(`${standardsPath(projectId)}/frameworks/import`, { method: 'POST', body })),
    [stdFrameworksKey(projectId)],
  );
}

/** POST /frameworks/ecfr: a superadmin loads an edition of 42 CFR 482 from the official eCFR XML. */
export function useLoadEcfrEdition(projectId: string) {
  return useInvalidatingMutation(
    (body: StdEcfrImport) =>
      apiFetch(`${standardsPath(projectId)}/frameworks/ecfr`, { method: 'POST', body, schema: stdEcfrImportedSchema }),
    [standardsKey(projectId)],
  );
}
