import { errorBodySchema } from '@portal/shared';

/**
 * A route's documented error answers, each the shared error body: `errorAnswers(400, 401, 404)` stands for
 * `{ 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema }`, spread into a route's `response`.
 */
export function errorAnswers<Status extends number>(...statuses: Status[]): Record<Status, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Status,
    typeof errorBodySchema
  >;
}
