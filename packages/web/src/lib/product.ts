export const PRODUCT_NAME = 'Healthcare Quality Portal';
