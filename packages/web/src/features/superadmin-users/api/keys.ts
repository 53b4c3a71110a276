/** Every query of the superadmin's user screens: lists, details and new-user requests. */
export const SUPER_USERS_KEY = ['super', 'users'] as const;
export const SUPER_USER_REQUESTS_KEY = ['super', 'user-requests'] as const;

/** The superadmin console's counts (features/superadmin-console) and the project pages' member lists (features/superadmin-projects). */
export const SUPER_DASHBOARD_KEY = ['super', 'dashboard'] as const;
export const SUPER_PROJECTS_KEY = ['super-projects'] as const;

export const superUserPath = (id: number | string) => `/super/users/${id}`;
