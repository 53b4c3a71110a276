import { createSanitizer } from '@portal/shared';
import DOMPurify from 'isomorphic-dompurify';

/** The SPEC section 5 policy on a jsdom-backed DOMPurify: applied to rich text before it is stored. */
export const sanitizeHtml = createSanitizer(DOMPurify);
