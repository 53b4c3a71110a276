import { useDocumentTitle } from '@mantine/hooks';
import { PRODUCT_NAME } from './product';

/** Sets document.title to "<page> | Healthcare Quality Portal", or the product name alone without a page. */
export function usePageTitle(page?: string): void {
  useDocumentTitle(page ? `${page} | ${PRODUCT_NAME}` : PRODUCT_NAME);
}
