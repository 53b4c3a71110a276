import {
  type FormulaPreview,
  type FormulaValidate,
  type FormulaValidation,
  formulaValidationSchema,
  type Series,
  seriesSchema,
} from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringPath } from './keys';
import { measuresKey } from './measures-list';

export type { FormulaPreview, FormulaValidate, FormulaValidation, Series };

/** POST .../formulas/validate: one expression checked against the dataset's columns, explained and previewed. */
export function validateFormula(
  projectId: string,
  body: FormulaValidate,
  signal?: AbortSignal,
): Promise<FormulaValidation> {
  return apiFetch(`${monitoringPath(projectId)}/formulas/validate`, {
    method: 'POST',
    body,
    signal,
    schema: formulaValidationSchema,
  });
}

/** The check of one expression as it stands (null: nothing to check). Answers are cached per text. */
export function useFormulaValidation(projectId: string, body: FormulaValidate | null) {
  return useQuery({
    queryKey: [...measuresKey(projectId), 'validate', body] as const,
    queryFn: ({ signal }) => validateFormula(projectId, body!, signal),
    enabled: body !== null,
    staleTime: 30_000,
  });
}

/** POST .../formulas/preview: an unsaved measure computed on the current rows, per period, with its SPC reading. */
export function previewMeasure(projectId: string, body: FormulaPreview, signal?: AbortSignal): Promise<Series> {
  return apiFetch(`${monitoringPath(projectId)}/formulas/preview`, {
    method: 'POST',
    body,
    signal,
    schema: seriesSchema,
  });
}

/** The preview of the measure being edited; the last answer stays on screen while the next one loads. */
export function useMeasurePreview(projectId: string, body: FormulaPreview | null) {
  return useQuery({
    queryKey: [...measuresKey(projectId), 'preview', body] as const,
    queryFn: ({ signal }) => previewMeasure(projectId, body!, signal),
    enabled: body !== null,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
