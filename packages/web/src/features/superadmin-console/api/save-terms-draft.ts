import { type TermsVersionDetail, termsVersionDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { SUPER_TERMS_KEY, type TermsEditorState } from './get-terms-editor';

/** PUT /super/terms/draft { content }: saves (sanitised on the server) the one draft. */
export function saveTermsDraft(content: string): Promise<TermsVersionDetail> {
  return apiFetch('/super/terms/draft', { method: 'PUT', body: { content }, schema: termsVersionDetailSchema });
}

export function useSaveTermsDraft() {
  return useApiMutation(saveTermsDraft, (queryClient, draft) => {
    queryClient.setQueryData<TermsEditorState>([...SUPER_TERMS_KEY, 'editor'], (state) =>
      state ? { ...state, draft } : state,
    );
    void queryClient.invalidateQueries({ queryKey: [...SUPER_TERMS_KEY, 'versions'] });
  });
}
