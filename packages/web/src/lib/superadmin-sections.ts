/** The parts of administration, as the superadmin home lists them. */
export const SUPERADMIN_SECTIONS = [
  { to: '/superadmin/projects', title: 'Projects', purpose: 'Every project, its facility and its active apps.' },
  { to: '/superadmin/users', title: 'Users', purpose: 'Accounts, their roles and their project memberships.' },
  {
    to: '/superadmin/new-user-requests',
    title: 'New User Requests',
    purpose: 'Requests from project admins for new accounts.',
  },
  {
    to: '/superadmin/identity-providers',
    title: 'Identity providers',
    purpose: 'Single sign-on: the organisations whose accounts people sign in with.',
  },
  {
    to: '/superadmin/terms_and_conditions',
    title: 'Terms and Conditions',
    purpose: 'The system use notification users accept.',
  },
  {
    to: '/superadmin/terms_and_conditions/history',
    title: 'Terms and Conditions History',
    purpose: 'Earlier versions of the terms and when they changed.',
  },
  { to: '/superadmin/email-logs', title: 'Email Logs', purpose: 'Every email the portal sent or tried to send.' },
  {
    to: '/superadmin/monitoring-permissions',
    title: 'Monitoring Permissions',
    purpose: 'The permission matrix of the monitoring app.',
  },
  {
    to: '/superadmin/chart-review-permissions',
    title: 'Chart Review Permissions',
    purpose: 'The permission matrix of the chart review app.',
  },
  {
    to: '/superadmin/policy-management-permissions',
    title: 'Policy Management Permissions',
    purpose: 'The permission matrix of the policy management app.',
  },
  { to: '/superadmin/audit-log', title: 'Audit Log', purpose: 'Who changed what, and when.' },
  { to: '/dev/editor', title: 'Editor', purpose: 'The rich-text editor used for terms and documents.' },
] as const;
