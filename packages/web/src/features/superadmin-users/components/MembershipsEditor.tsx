import { Alert, Anchor, Button, Fieldset, Group, Select, Stack, Text } from '@mantine/core';
import type { MainRoles, ProjectRole } from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { MemberRoleFields } from '../../../components/MemberRoleFields';
import { messageFor } from '../../../lib/api';
import { useProjects } from '../../../lib/project/get-projects';

export interface MembershipDraft {
  project_id: number;
  project_name: string;
  project_role: ProjectRole;
  main_roles: MainRoles;
}

/** The body form of a membership: every app present, "No role" as null. */
export function membershipBody({ project_id, project_role, main_roles }: MembershipDraft) {
  return {
    project_id,
    project_role,
    main_roles: {
      monitoring: main_roles.monitoring ?? null,
      policy_management: main_roles.policy_management ?? null,
      chart_review: main_roles.chart_review ?? null,
    },
  };
}

interface MembershipsEditorProps {
  value: MembershipDraft[];
  onChange: (value: MembershipDraft[]) => void;
  disabled?: boolean;
  /** Link each project's name to its superadmin page. */
  linkProjects?: boolean;
  /** Shown when the list is empty. */
  emptyText: string;
}

/**
 * A list of project memberships with their roles: add a project from the active ones not yet listed, change the
 * roles, remove a row. Nothing is sent: the parent saves the list.
 */
export function MembershipsEditor({ value, onChange, disabled, linkProjects, emptyText }: MembershipsEditorProps) {
  const projects = useProjects(true);
  const [search, setSearch] = useState('');
  const taken = new Set(value.map((row) => row.project_id));
  const options = (projects.data ?? [])
    .filter((project) => !taken.has(project.id))
    .map((project) => ({ value: String(project.id), label: project.name }));

  function add(id: string | null) {
    const project = projects.data?.find((candidate) => String(candidate.id) === id);
    setSearch('');
    if (!project || taken.has(project.id)) return;
    onChange([
      ...value,
      { project_id: project.id, project_name: project.name, project_role: 'simple', main_roles: {} },
    ]);
  }

  let placeholder = 'Pick a project to add';
  if (projects.isPending) placeholder = 'Loading projects...';
  else if (options.length === 0) placeholder = 'Every active project is in the list';

  return (
    <Stack gap="sm">
      {value.length === 0 ? (
        <Text c="dimmed" size="sm">
          {emptyText}
        </Text>
      ) : (
        value.map((row) => (
          <Fieldset
            key={row.project_id}
            data-project-id={row.project_id}
            variant="filled"
            p="sm"
            legend={
              linkProjects ? (
                <Anchor component={Link} to={`/superadmin/projects/${row.project_id}`} fw={600} size="sm">
                  {row.project_name}
                </Anchor>
              ) : (
                <Text component="span" fw={600} size="sm">
                  {row.project_name}
                </Text>
              )
            }
          >
            <Stack gap="sm">
              <MemberRoleFields
                value={row}
                disabled={disabled}
                onChange={(roles) =>
                  onChange(value.map((other) => (other.project_id === row.project_id ? { ...other, ...roles } : other)))
                }
              />
              <Group justify="flex-end">
                <Button
                  variant="subtle"
                  color="red.9"
                  size="compact-sm"
                  disabled={disabled}
                  aria-label={`Remove ${row.project_name}`}
                  onClick={() => onChange(value.filter((other) => other.project_id !== row.project_id))}
                >
                  Remove
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        ))
      )}
      {projects.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{messageFor(projects.error, 'The projects could not be loaded.')}</Text>
            <Button size="compact-sm" variant="default" onClick={() => void projects.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : (
        <Select
          label="Add a project"
          placeholder={placeholder}
          data={options}
          value={null}
          onChange={add}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage="No project matches"
          disabled={disabled || projects.isPending || options.length === 0}
          maw={420}
        />
      )}
    </Stack>
  );
}
