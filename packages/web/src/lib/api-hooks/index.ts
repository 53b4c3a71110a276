export { useApiMutation, useInvalidatingMutation } from './api-mutation';
export { apiQuery } from './api-query';
