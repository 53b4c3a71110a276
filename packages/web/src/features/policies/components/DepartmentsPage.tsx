import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { type DepartmentInput, departmentInputSchema } from '@portal/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice, LoadFailure, LoadingRows, PageHeading, SectionCard } from '../../../components/page-parts';
import { useFormState } from '../../../components/shared-parts/use-form-state';
import { messageFor } from '../../../lib/api';
import { schemaFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useCreateDepartment } from '../api/create-department';
import { useDeleteDepartment } from '../api/delete-department';
import { type Department, useDepartments } from '../api/get-departments';
import { type DepartmentPatch, useUpdateDepartment } from '../api/update-department';
import { departmentSelectData } from './browse-ui';
import { MISSING_DEPARTMENT, NO_DEPARTMENTS } from './department-parts';
import { DepartmentQrButton } from './PolicyLinkActions';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

const FIELDS = ['name', 'code', 'parent_id'] as const;
type Field = (typeof FIELDS)[number];
interface Values {
  name: string;
  code: string;
  /** The Select's value: the parent's id as text, or null for the top level. */
  parent_id: string | null;
}
const EMPTY: Values = { name: '', code: '', parent_id: null };
const NO_EXCLUSIONS = new Set<number>();

type Mode = 'insert' | 'edit';

/**
 * /app/policy_management/{projectId}/insert-department (a form for a new department above the list) and
 * /edit-department[/{departmentId}] (the list; the id opens that department's form). `mode` defaults from the path.
 */
export function DepartmentsPage({ mode }: { mode?: Mode }) {
  const { pathname } = useLocation();
  const { departmentId } = useParams();
  const actual: Mode = mode ?? (/\/insert-department\/?$/.test(pathname) ? 'insert' : 'edit');
  const title = actual === 'insert' ? 'Add a department' : 'Edit departments';
  usePageTitle(title);
  const projectId = usePolicyProjectId();
  const preselected = departmentId && /^\d{1,10}$/.test(departmentId) ? Number(departmentId) : null;
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={title}>
        Departments group the policies; their codes can prefix policy numbers (NUR-1.2).
      </PageHeading>
      <DepartmentsScreen
        key={`${actual}-${departmentId ?? ''}`}
        projectId={projectId}
        mode={actual}
        preselected={departmentId === undefined ? undefined : preselected}
      />
    </Stack>
  );
}

interface ScreenProps {
  projectId: string;
  mode: Mode;
  /** From the path: undefined when it names none, null when it names an invalid id. */
  preselected: number | null | undefined;
}

function DepartmentsScreen({ projectId, mode, preselected }: ScreenProps) {
  const list = useDepartments(projectId);
  const create = useCreateDepartment(projectId);
  const update = useUpdateDepartment(projectId);
  const remove = useDeleteDepartment(projectId);
  const [editingId, setEditingId] = useState<number | null>(preselected ?? null);
  const [deleting, setDeleting] = useState<Department | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);

  if (list.isPending) return <LoadingRows label="Loading the departments" />;
  if (list.isError) {
    return (
      <LoadFailure
        error={list.error}
        fallback="The departments could not be loaded. Please try again."
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const departments = list.data;
  const editing = editingId === null ? undefined : departments.find((item) => item.id === editingId);
  const missing = preselected === null || (preselected !== undefined && editingId === preselected && !editing);

  async function add(input: DepartmentInput) {
    const created = await create.mutateAsync(input);
    toast.success(`Department "${created.name}" added.`);
  }

  async function save(department: Department, input: DepartmentInput) {
    const patch: DepartmentPatch = {};
    if (input.name !== department.name) patch.name = input.name;
    if (input.code !== department.code) patch.code = input.code;
    if (input.parent_id !== department.parent_id) patch.parent_id = input.parent_id;
    if (Object.keys(patch).length > 0) {
      await update.mutateAsync({ id: department.id, patch });
      toast.success('Department saved.');
    }
    setEditingId(null);
  }

  async function removeNow(department: Department) {
    setDeleting(null);
    setDeleteFailure(null);
    try {
      await remove.mutateAsync(department.id);
      toast.success(`Department "${department.name}" deleted.`);
    } catch (error) {
      setDeleteFailure(messageFor(error, 'The department could not be deleted. Please try again.'));
    }
  }

  return (
    <>
      {mode === 'insert' ? (
        <SectionCard id="new-department-heading" title="New department">
          <DepartmentForm
            departments={departments}
            initial={EMPTY}
            excluded={NO_EXCLUSIONS}
            submitLabel="Add department"
            resetOnSave
            onSave={add}
          />
        </SectionCard>
      ) : (
        <Group>
          <Button component={Link} to={policyRoute(projectId, 'insert-department')} variant="default">
            Add a department
          </Button>
        </Group>
      )}
      {missing && (
        <Alert color="yellow" variant="light" role="alert">
          {MISSING_DEPARTMENT}
        </Alert>
      )}
      <SectionCard id="departments-heading" title="Departments">
        {deleteFailure && (
          <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setDeleteFailure(null)}>
            {deleteFailure}
          </Alert>
        )}
        {departments.length === 0 ? (
          <Text>{NO_DEPARTMENTS}</Text>
        ) : (
          <DepartmentTable
            projectId={projectId}
            departments={departments}
            busyId={remove.isPending ? remove.variables : undefined}
            onEdit={(department) => setEditingId(department.id)}
            onDelete={(department) => {
              setDeleteFailure(null);
              setDeleting(department);
            }}
          />
        )}
      </SectionCard>
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditingId(null)}
        title={editing ? `Edit ${editing.name}` : 'Edit department'}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {editing && (
          <DepartmentForm
            key={editing.id}
            departments={departments}
            initial={{
              name: editing.name,
              code: editing.code,
              parent_id: editing.parent_id === null ? null : String(editing.parent_id),
            }}
            excluded={branchOf(departments, editing.id)}
            submitLabel="Save department"
            onSave={(input) => save(editing, input)}
            onCancel={() => setEditingId(null)}
          />
        )}
        {editing && (
          <Group component="nav" aria-label={`People of ${editing.name}`} gap="md" mt="lg">
            <Text size="sm" c="dimmed">
              People:
            </Text>
            {(['reviewers', 'signers', 'readers'] as const).map((role) => (
              <Anchor
                key={role}
                component={Link}
                to={policyRoute(projectId, `department-${role}/${editing.id}`)}
                size="sm"
              >
                {role.charAt(0).toUpperCase() + role.slice(1)}
              </Anchor>
            ))}
          </Group>
        )}
      </Modal>
      <ConfirmActionModal
        opened={deleting !== null}
        title={deleting ? `Delete department "${deleting.name}"?` : 'Delete department?'}
        message="The department is removed for good. A department that still has documents or sub-departments cannot be deleted: move them first."
        confirmLabel="Delete department"
        danger
        onConfirm={() => deleting && void removeNow(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

/** The departments in tree order (each one followed by its sub-departments, names A to Z) with their depth. */
function treeOrder(departments: Department[]): { department: Department; depth: number }[] {
  const ids = new Set(departments.map((department) => department.id));
  const children = new Map<number | null, Department[]>();
  for (const department of departments) {
    const parent = department.parent_id !== null && ids.has(department.parent_id) ? department.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), department]);
  }
  const ordered: { department: Department; depth: number }[] = [];
  const seen = new Set<number>();
  const visit = (parent: number | null, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'en'));
    for (const department of list) {
      if (seen.has(department.id)) continue;
      seen.add(department.id);
      ordered.push({ department, depth });
      visit(department.id, depth + 1);
    }
  };
  visit(null, 0);
  // A cycle in bad data would hide departments; list them at the end rather than lose them.
  for (const department of departments) if (!seen.has(department.id)) ordered.push({ department, depth: 0 });
  return ordered;
}

/** A department and every department below it: none of them can become its parent. */
function branchOf(departments: Department[], rootId: number): Set<number> {
  const branch = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const department of departments) {
      if (department.parent_id !== null && branch.has(department.parent_id) && !branch.has(department.id)) {
        branch.add(department.id);
        grew = true;
      }
    }
  }
  return branch;
}

interface TableProps {
  projectId: string;
  departments: Department[];
  busyId: number | undefined;
  onEdit: (department: Department) => void;
  onDelete: (department: Department) => void;
}

function DepartmentTable({ projectId, departments, busyId, onEdit, onDelete }: TableProps) {
  const names = new Map(departments.map((department) => [department.id, department.name]));
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Code</Table.Th>
            <Table.Th scope="col">Parent</Table.Th>
            <Table.Th scope="col" ta="right">
              Documents
            </Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {treeOrder(departments).map(({ department, depth }) => (
            <Table.Tr key={department.id} data-department-id={department.id}>
              <Table.Td style={{ paddingLeft: `calc(var(--table-horizontal-spacing, 0.75rem) + ${depth * 1.25}rem)` }}>
                {department.name}
              </Table.Td>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {department.code}
                </Text>
              </Table.Td>
              <Table.Td>{department.parent_id === null ? '—' : (names.get(department.parent_id) ?? '—')}</Table.Td>
              <Table.Td ta="right">{department.document_count.toLocaleString('en-US')}</Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <DepartmentQrButton projectId={projectId} department={department} />
                  <Button
                    variant="default"
                    size="compact-sm"
                    aria-label={`Edit ${department.name}`}
                    onClick={() => onEdit(department)}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="subtle"
                    color="red.8"
                    size="compact-sm"
                    aria-label={`Delete ${department.name}`}
                    loading={busyId === department.id}
                    onClick={() => onDelete(department)}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface FormProps {
  departments: Department[];
  initial: Values;
  /** Departments that cannot be the parent (the one edited and those below it). */
  excluded: Set<number>;
  submitLabel: string;
  resetOnSave?: boolean;
  /** Saves; a thrown error is shown on the form (server field errors on their fields). */
  onSave: (input: DepartmentInput) => Promise<void>;
  onCancel?: () => void;
}

function DepartmentForm({ departments, initial, excluded, submitLabel, resetOnSave, onSave, onCancel }: FormProps) {
  const { values, setValues, errors, setErrors, failure, setFailure, change, refused } = useFormState(initial, FIELDS);
  const [saving, setSaving] = useState(false);
  const parents = useMemo(
    () => departmentSelectData(departments).filter((option) => !excluded.has(Number(option.value))),
    [departments, excluded],
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setFailure(null);
    const parsed = departmentInputSchema.safeParse({
      name: values.name,
      code: values.code,
      parent_id: values.parent_id === null ? null : Number(values.parent_id),
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await onSave(parsed.data);
      if (resetOnSave) setValues(initial);
    } catch (error) {
      refused(error, 'The department could not be saved. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={520}>
        <ErrorNotice message={failure} />
        <TextInput
          label="Name"
          required
          value={values.name}
          onChange={(event) => change('name', event.currentTarget.value)}
          error={errors.name}
          autoComplete="off"
        />
        <TextInput
          label="Code"
          required
          description="1 to 10 capital letters or digits, starting with a letter (e.g. NUR)."
          value={values.code}
          onChange={(event) => change('code', event.currentTarget.value.toUpperCase())}
          error={errors.code}
          maxLength={10}
          autoComplete="off"
          styles={{ input: { textTransform: 'uppercase' } }}
          maw={220}
        />
        <Select
          label="Parent"
          placeholder="None (top level)"
          data={parents}
          value={values.parent_id}
          onChange={(value) => change('parent_id', value)}
          error={errors.parent_id}
          clearable
          searchable
          nothingFoundMessage="No department matches"
        />
        <Group gap="sm">
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
