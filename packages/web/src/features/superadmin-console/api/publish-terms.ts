import { type TermsVersionDetail, termsVersionDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { SUPER_TERMS_KEY, type TermsEditorState } from './get-terms-editor';

/** POST /super/terms/publish { content } (201): a new version every user must accept at their next sign-in. */
export function publishTerms(content: string): Promise<TermsVersionDetail> {
  return apiFetch('/super/terms/publish', { method: 'POST', body: { content }, schema: termsVersionDetailSchema });
}

export function usePublishTerms() {
  return useApiMutation(publishTerms, (queryClient, published) => {
    // Publishing uses up the draft.
    queryClient.setQueryData<TermsEditorState>([...SUPER_TERMS_KEY, 'editor'], { draft: null, published });
    void queryClient.invalidateQueries({ queryKey: [...SUPER_TERMS_KEY, 'versions'] });
    void queryClient.invalidateQueries({ queryKey: ['super', 'dashboard'] });
    // The public terms page shows the new text.
    void queryClient.invalidateQueries({ queryKey: ['public', 'terms-and-conditions'] });
  });
}
