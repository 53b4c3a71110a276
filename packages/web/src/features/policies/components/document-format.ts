import { VERSION_STATE_LABELS, type VersionSummary } from '@portal/shared';
import { policyRoute } from './use-policy-project';

/** A document id in a route: 1 to 10 digits, like the server's policyIdParams. */
export const DOCUMENT_ID = /^\d{1,10}$/;

/** A version id from the query string, or null when there is none or it is malformed. */
export function versionIdParam(value: string | null): number | null {
  return value && DOCUMENT_ID.test(value) ? Number(value) : null;
}

/** '4.2 Hand hygiene', or the title alone while the document has no number. */
export { documentName } from '@portal/shared';

/** The document's page, optionally showing one version or a tab. */
export function documentPage(projectId: string, documentId: number | string, query?: Record<string, string>): string {
  const search = query ? `?${new URLSearchParams(query)}` : '';
  return policyRoute(projectId, `documents/${documentId}${search}`);
}

export function documentEditPage(projectId: string, documentId: number | string): string {
  return policyRoute(projectId, `documents/${documentId}/edit`);
}

export function documentPrintPage(projectId: string, documentId: number | string, versionId: number): string {
  return policyRoute(projectId, `documents/${documentId}/print?version=${versionId}`);
}

/** Where a stored file (a version's source file, an image) is downloaded from. */
export function policyFileUrl(projectId: string, fileId: number): string {
  return `/api/projects/${projectId}/policy-management/files/${fileId}`;
}

/** 'Version 3 (Superseded)'. */
export function versionLabel(version: Pick<VersionSummary, 'version' | 'state'>): string {
  return `Version ${version.version} (${VERSION_STATE_LABELS[version.state]})`;
}
