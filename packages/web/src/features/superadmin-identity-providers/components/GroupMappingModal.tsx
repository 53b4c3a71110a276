import { Alert, Button, Group, Modal, MultiSelect, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { groupMappingInputSchema, PERMISSION_APPS, type PermissionApp, PROJECT_ROLES } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice, QueryFailure } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { APP_ROLE_LABELS, PROJECT_ROLE_LABELS, roleLabel } from '../../../lib/role-labels';
import {
  type GroupMapping,
  type GroupMappingOptions,
  useGroupMappingOptions,
  useSaveGroupMapping,
} from '../api/group-mappings';
import { type ErrorMap, serverErrors } from './provider-form';

/** What the form edits: Selects hold strings ('' is no role). */
export interface MappingDraft {
  group: string;
  project_id: string | null;
  project_role: (typeof PROJECT_ROLES)[number];
  main_roles: Record<PermissionApp, string>;
  reader_department_ids: string[];
}

export function draftOfMapping(mapping: GroupMapping | null): MappingDraft {
  return {
    group: mapping?.group ?? '',
    project_id: mapping ? String(mapping.project_id) : null,
    project_role: mapping?.project_role ?? 'simple',
    main_roles: {
      monitoring: mapping?.main_roles.monitoring ?? '',
      policy_management: mapping?.main_roles.policy_management ?? '',
      chart_review: mapping?.main_roles.chart_review ?? '',
    },
    reader_department_ids: mapping?.reader_departments.map((d) => String(d.id)) ?? [],
  };
}

/** The request body, checked with the shared schema (its sentences, the first per field). */
export function parseMapping(draft: MappingDraft) {
  const parsed = groupMappingInputSchema.safeParse({
    group: draft.group,
    project_id: draft.project_id === null ? null : Number(draft.project_id),
    project_role: draft.project_role,
    main_roles: Object.fromEntries(PERMISSION_APPS.map((app) => [app, draft.main_roles[app] || null])),
    reader_department_ids: draft.reader_department_ids.map(Number),
  });
  if (parsed.success) return { ok: true as const, body: parsed.data };
  const errors: ErrorMap = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.filter((segment) => typeof segment === 'string').join('.') || 'form';
    if (!(key in errors)) errors[key] = issue.message;
  }
  return { ok: false as const, errors };
}

const FIELDS = [
  'group',
  'project_id',
  'project_role',
  'reader_department_ids',
  ...PERMISSION_APPS.map((app) => `main_roles.${app}`),
];

interface GroupMappingModalProps {
  providerId: number;
  opened: boolean;
  /** The mapping to edit; null adds one. */
  mapping: GroupMapping | null;
  onClose: () => void;
}

/** Adds or edits a group mapping: the group, a project, its project role, main roles and reader duties. */
export function GroupMappingModal({ providerId, opened, mapping, onClose }: GroupMappingModalProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={mapping ? `Edit the mapping of ${mapping.group}` : 'Add group mapping'}
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <MappingForm key={mapping?.id ?? 'new'} providerId={providerId} mapping={mapping} onClose={onClose} />}
    </Modal>
  );
}

function MappingForm({
  providerId,
  mapping,
  onClose,
}: {
  providerId: number;
  mapping: GroupMapping | null;
  onClose: () => void;
}) {
  const options = useGroupMappingOptions(providerId);
  if (options.isPending) {
    return (
      <Text size="sm" role="status">
        Loading the projects…
      </Text>
    );
  }
  if (options.isError) {
    return (
      <QueryFailure query={options} fallback="The projects could not be loaded. Please try again." retryLabel="Retry" />
    );
  }
  return <MappingFields providerId={providerId} mapping={mapping} options={options.data} onClose={onClose} />;
}

function MappingFields({
  providerId,
  mapping,
  options,
  onClose,
}: {
  providerId: number;
  mapping: GroupMapping | null;
  options: GroupMappingOptions;
  onClose: () => void;
}) {
  const save = useSaveGroupMapping(providerId);
  const [draft, setDraft] = useState<MappingDraft>(() => draftOfMapping(mapping));
  const [errors, setErrors] = useState<ErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const project = options.projects.find((p) => String(p.id) === draft.project_id);
  // A mapping's project that was deactivated since is still shown by name.
  const projectChoices = [
    ...options.projects.map((p) => ({ value: String(p.id), label: p.name })),
    ...(mapping && !options.projects.some((p) => p.id === mapping.project_id)
      ? [{ value: String(mapping.project_id), label: `${mapping.project_name} (deactivated)` }]
      : []),
  ];

  function change(next: Partial<MappingDraft>, cleared: string[]) {
    setDraft((current) => ({ ...current, ...next }));
    setErrors((current) => {
      const left = { ...current };
      for (const key of cleared) delete left[key];
      return left;
    });
  }
  function pickProject(value: string | null) {
    const chosen = options.projects.find((p) => String(p.id) === value);
    // Roles of apps the new project does not use, and another project's departments, go.
    const roles = { ...draft.main_roles };
    for (const app of PERMISSION_APPS) if (!chosen?.apps.includes(app)) roles[app] = '';
    const departments = draft.reader_department_ids.filter((id) =>
      chosen?.departments.some((d) => String(d.id) === id),
    );
    change({ project_id: value, main_roles: roles, reader_department_ids: departments }, [
      'project_id',
      'reader_department_ids',
      ...PERMISSION_APPS.map((app) => `main_roles.${app}`),
    ]);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(null);
    const parsed = parseMapping(draft);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      const unplaced = Object.keys(parsed.errors).find((key) => !FIELDS.includes(key));
      if (unplaced) setFailure(parsed.errors[unplaced] ?? null);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: mapping?.id ?? null, body: parsed.body });
      toast.success(
        mapping ? `The mapping of ${saved.group} saved.` : `${saved.group} mapped to ${saved.project_name}.`,
      );
      onClose();
    } catch (error) {
      const found = serverErrors(error);
      const placed = Object.fromEntries(Object.entries(found).filter(([key]) => FIELDS.includes(key)));
      setErrors(placed);
      if (Object.keys(placed).length === 0) {
        setFailure(messageFor(error, 'The group mapping could not be saved. Please try again.'));
      }
    }
  }

  const apps = project?.apps ?? [];
  const policies = apps.includes('policy_management');
  return (
    <form onSubmit={submit} noValidate aria-label={mapping ? 'Edit group mapping' : 'Add group mapping'}>
      <Stack gap="md">
        <ErrorNotice message={failure} />
        {options.projects.length === 0 && !mapping && (
          <Alert color="yellow" variant="light">
            There is no active project to map a group to yet.
          </Alert>
        )}
        <TextInput
          label="Directory group"
          description="As the provider sends it in the groups claim: its name (Okta, Keycloak) or its ID (Entra ID)."
          placeholder="ICU Nursing"
          required
          autoComplete="off"
          maxLength={300}
          value={draft.group}
          onChange={(event) => change({ group: event.currentTarget.value }, ['group'])}
          error={errors.group}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label="Project"
            placeholder="Pick a project"
            required
            searchable
            data={projectChoices}
            value={draft.project_id}
            onChange={pickProject}
            error={errors.project_id}
            nothingFoundMessage="No project by that name"
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Project role"
            required
            allowDeselect={false}
            data={PROJECT_ROLES.map((role) => ({ value: role, label: PROJECT_ROLE_LABELS[role] }))}
            value={draft.project_role}
            onChange={(value) =>
              change({ project_role: (value ?? 'simple') as MappingDraft['project_role'] }, ['project_role'])
            }
            error={errors.project_role}
          />
        </SimpleGrid>
        {!project ? (
          <Text size="sm" c="gray.7">
            Pick a project to choose the main roles of its apps.
          </Text>
        ) : apps.length === 0 ? (
          <Text size="sm" c="gray.7">
            This project uses no app with main roles: its members get the project role only.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {PERMISSION_APPS.filter((app) => apps.includes(app)).map((app) => (
              <Select
                key={app}
                label={`${APP_ROLE_LABELS[app]} role`}
                allowDeselect={false}
                data={[
                  { value: '', label: 'No role' },
                  ...options.main_roles[app].map((role) => ({ value: role, label: roleLabel(role) })),
                ]}
                value={draft.main_roles[app]}
                onChange={(value) =>
                  change({ main_roles: { ...draft.main_roles, [app]: value ?? '' } }, [
                    `main_roles.${app}`,
                    ...(app === 'policy_management' ? ['reader_department_ids'] : []),
                  ])
                }
                error={errors[`main_roles.${app}`]}
              />
            ))}
          </SimpleGrid>
        )}
        {project && policies && (
          <MultiSelect
            label="Reader of departments"
            description={
              project.departments.length === 0
                ? 'This project has no policy departments yet.'
                : 'Its members must read and acknowledge these departments’ policies. Needs a policy management role.'
            }
            placeholder={draft.reader_department_ids.length ? undefined : 'No departments'}
            searchable
            data={project.departments.map((d) => ({ value: String(d.id), label: `${d.name} (${d.code})` }))}
            value={draft.reader_department_ids}
            onChange={(value) => change({ reader_department_ids: value }, ['reader_department_ids'])}
            error={errors.reader_department_ids}
            disabled={project.departments.length === 0}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {mapping ? 'Save mapping' : 'Add mapping'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
