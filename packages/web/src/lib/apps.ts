import type { AppCode } from '@portal/shared';

export interface AppInfo {
  name: string;
  /** What the app is for, in one sentence. */
  purpose: string;
  /** Where the app opens for a project. */
  home: (projectId: string | number) => string;
  /** Only project admins (and superadmins) open it. */
  adminOnly?: boolean;
}

/** The per-project apps of SPEC section 1, as the portal presents them. */
export const APP_INFO: Record<AppCode, AppInfo> = {
  policy_management: {
    name: 'Policy Management',
    purpose:
      "Write, review, sign and publish the facility's policies and procedures, numbered and organised by department.",
    home: (id) => `/app/policy_management/${id}/toc`,
  },
  monitoring: {
    name: 'Monitoring',
    purpose:
      'Track quality measures page by page: introduction, benchmarks, parameters and metrics, charts and key insights.',
    home: (id) => `/app/monitoring/${id}`,
  },
  chart_review: {
    name: 'Chart Review',
    purpose: "Review patient charts against the project's criteria and follow up on what the reviews find.",
    home: (id) => `/app/chart-review/${id}/my`,
  },
  standards: {
    name: 'Standards',
    purpose:
      'Keep the accreditation standards the facility must meet, their compliance status and who answers for them.',
    home: (id) => `/app/standards/${id}/compilence`,
  },
  admin: {
    name: 'Admin',
    purpose: "Manage the project's users, new-user requests, project details and contact messages.",
    home: (id) => `/app/admin/${id}/admin-dashboard`,
    adminOnly: true,
  },
  policy_generator: {
    name: 'Policy Generator',
    purpose: 'Draft new policies from structured templates before they enter policy management.',
    home: () => '/app/policy_generator',
  },
};

/** Route spellings of app codes in /app/{code} (the chart review routes use a hyphen). */
export function appCodeFromRoute(code: string): AppCode | null {
  const normalised = code.replace(/-/g, '_');
  return normalised in APP_INFO ? (normalised as AppCode) : null;
}

/** A section path segment as a title: "page-levels" -> "Page levels". */
export function sectionLabel(segment: string): string {
  const words = segment.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : '';
}
