import { isProjectId, isProjectRef, isRecordId } from '@portal/shared';
import { createElement, type ReactNode } from 'react';
import { type Params, useParams } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';

/** The project id route parameter (1 to 10 digits, SPEC section 5), or null when missing or malformed. */
export function validProjectId(params: Params, name = 'projectId'): string | null {
  const value = params[name];
  return value !== undefined && isProjectId(value) ? value : null;
}

/**
 * The project slug route parameter (1 to 50 letters, digits, `_` or `-`; a project id is accepted too), or null when
 * missing or malformed. Digits only are an id: more than 10 of them is not a route (SPEC section 5).
 */
export function validSlug(params: Params, name = 'slug'): string | null {
  const value = params[name];
  return value !== undefined && isProjectRef(value) ? value : null;
}

export type RouteParamKind = 'projectId' | 'slug';

const validators: Record<RouteParamKind, (params: Params, name: string) => string | null> = {
  projectId: validProjectId,
  slug: validSlug,
};

/** True when every named parameter is present and matches its kind. */
export function routeParamsValid(params: Params, rules: Record<string, RouteParamKind>): boolean {
  return Object.entries(rules).every(([name, kind]) => validators[kind](params, name) !== null);
}

interface RouteParamGuardProps {
  /** Parameter name to kind, e.g. `{ projectId: 'projectId' }` or `{ slug: 'slug' }`. */
  rules: Record<string, RouteParamKind>;
  children: ReactNode;
}

/**
 * A route whose record ids must be ids (`recordRoute(<PageViewPage />, 'pageId')`): /pages/page/abc is not a route,
 * so it shows the not-found page rather than the screen asking the server for a record "abc". An optional parameter
 * that is absent is fine.
 */
export function recordRoute(element: ReactNode, ...names: string[]): ReactNode {
  return createElement(RecordIdGuard, { names }, element);
}

function RecordIdGuard({ names, children }: { names: string[]; children?: ReactNode }): ReactNode {
  const params = useParams();
  const valid = names.every((name) => params[name] === undefined || isRecordId(params[name]));
  return valid ? children : createElement(NotFoundPage);
}

/**
 * Renders the not-found page instead of the route when a parameter is malformed (DESIGN section 4), so screens
 * never send a request for /app/monitoring/abc/... Usage:
 * `{ path: '/member/projects/:projectId/apps', element: <RouteParamGuard rules={{ projectId: 'projectId' }}>...`
 */
export function RouteParamGuard({ rules, children }: RouteParamGuardProps): ReactNode {
  const params = useParams();
  return routeParamsValid(params, rules) ? children : createElement(NotFoundPage);
}
