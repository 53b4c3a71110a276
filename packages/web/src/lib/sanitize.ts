import { createSanitizer } from '@portal/shared';
import DOMPurify from 'dompurify';

/** The SPEC section 5 rich-text policy on the browser's DOMPurify; installed once because it adds hooks. */
export const sanitizeHtml = createSanitizer(DOMPurify);
