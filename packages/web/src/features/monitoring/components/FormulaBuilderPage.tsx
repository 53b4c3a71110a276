import { NotFoundPage } from '../../../components/NotFoundPage';

/** Issue 9: being built (this file is replaced by its slice). */
export function FormulaBuilderPage(_props: { mode?: 'create' | 'edit' }) {
  return <NotFoundPage />;
}
