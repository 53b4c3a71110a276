import { type TermsVersionDetail, termsVersionDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { SUPER_TERMS_KEY, type TermsEditorState } from './get-terms-editor';

/** PUT /super/terms/draft { content }: saves (sanitised on the server) the one draft. */
export function saveTermsDraft(content: string): Promise<TermsVersionDetail> {
  return apiFetch('/super/terms/draft', { method: 'PUT', body: { content }, schema: termsVersionDetailSchema });
}

export function useSaveTermsDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTermsDraft,
    onSuccess: (draft) => {
      queryClient.setQueryData<TermsEditorState>([...SUPER_TERMS_KEY, 'editor'], (state) =>
        state ? { ...state, draft } : state,
      );
      void queryClient.invalidateQueries({ queryKey: [...SUPER_TERMS_KEY, 'versions'] });
    },
  });
}
