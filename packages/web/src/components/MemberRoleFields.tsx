import { Select, SimpleGrid, Stack } from '@mantine/core';
import { type MainRoles, PERMISSION_APPS, type ProjectRole } from '@portal/shared';
import { APP_ROLE_LABELS, mainRoleOptions, PROJECT_ROLE_LABELS } from '../lib/role-labels';

export interface MemberRoles {
  project_role: ProjectRole;
  main_roles: MainRoles;
}

interface MemberRoleFieldsProps {
  value: MemberRoles;
  onChange: (value: MemberRoles) => void;
  disabled?: boolean;
  /** Field messages from the server, keyed `project_role` or `main_roles.{app}`. */
  errors?: Partial<Record<string, string>>;
}

/**
 * A member's project role and main role per app, as the superadmin console and the project Admin app edit them.
 * "No role" is sent as null.
 */
export function MemberRoleFields({ value, onChange, disabled, errors }: MemberRoleFieldsProps) {
  return (
    <Stack gap="sm">
      <Select
        label="Project role"
        data={Object.entries(PROJECT_ROLE_LABELS).map(([role, label]) => ({ value: role, label }))}
        value={value.project_role}
        onChange={(role) => role && onChange({ ...value, project_role: role as ProjectRole })}
        allowDeselect={false}
        disabled={disabled}
        error={errors?.project_role}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {PERMISSION_APPS.map((app) => (
          <Select
            key={app}
            label={`${APP_ROLE_LABELS[app]} role`}
            data={mainRoleOptions(app)}
            value={value.main_roles[app] ?? ''}
            onChange={(role) => onChange({ ...value, main_roles: { ...value.main_roles, [app]: role ? role : null } })}
            allowDeselect={false}
            disabled={disabled}
            error={errors?.[`main_roles.${app}`]}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
