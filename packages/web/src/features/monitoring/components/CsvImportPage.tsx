import { NotFoundPage } from '../../../components/NotFoundPage';

/** Issue 9: being built (this file is replaced by its slice). */
export function CsvImportPage(_props: { mode?: 'create' | 'edit' }) {
  return <NotFoundPage />;
}
