import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  MultiSelect,
  Pill,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import {
  DEPARTMENT_ROLE_ELIGIBILITY,
  DEPARTMENT_ROLE_LABELS,
  DEPARTMENT_ROLES,
  type DepartmentPerson,
  type DepartmentRole,
  type PolicySection,
  permissionKey,
} from '@portal/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { LoadFailure, LoadingRows, PageHeading, QueryBody } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { assignDepartmentReaders, clearDepartmentReaders } from '../api/assign-department-readers';
import { removeAllDepartmentReviewers, updateDepartmentReviewers } from '../api/assign-department-reviewers';
import { assignDepartmentRoles, clearDepartmentAssignments } from '../api/assign-department-roles';
import {
  departmentPeopleKey,
  getEditAssignmentData,
  invalidateDepartmentPeople,
  useDepartmentAssignments,
  useDepartmentEditLists,
} from '../api/get-department-assignments';
import { getReaderEditData, useDepartmentReaders, useReaderCandidates } from '../api/get-department-readers';
import {
  getReviewerEditData,
  type ReviewerManagement,
  useDepartmentReviewers,
  useReviewerManagement,
} from '../api/get-department-reviewers';
import {
  AttestationBar,
  DepartmentLabel,
  departmentIdParam,
  inTreeOrder,
  isNotFound,
  MissingDepartment,
  NoDepartments,
  nestedCellStyle,
  SectionCard,
} from './department-parts';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

interface RoleInfo {
  /** The permission section and route segment: department-reviewers. */
  section: PolicySection;
  title: string;
  editTitle: string;
  /** 'reviewers' */
  plural: string;
  /** What the role does. */
  what: string;
  /** What a change does to the work in progress. */
  followUp: string;
  /** The button that empties the role. */
  clearLabel: string;
}

export const ROLE_INFO: Record<DepartmentRole, RoleInfo> = {
  reviewer: {
    section: 'department-reviewers',
    title: 'Department reviewers',
    editTitle: 'Edit department reviewers',
    plural: 'reviewers',
    what: "Reviewers approve the drafts of the department's policies before they go for signature.",
    followUp:
      'Changing the reviewers updates the open review rounds: people added are asked to review, people removed are no longer waited for.',
    clearLabel: 'Remove all reviewers',
  },
  signer: {
    section: 'department-signers',
    title: 'Department signers',
    editTitle: 'Edit department signers',
    plural: 'signers',
    what: "Signers sign the department's policies electronically once the reviewers have approved them; their signatures publish a version.",
    followUp:
      'Changing the signers updates the open review rounds: people added are asked to sign, people removed are no longer waited for.',
    clearLabel: 'Clear all assignments',
  },
  reader: {
    section: 'department-readers',
    title: 'Department readers',
    editTitle: 'Edit department readers',
    plural: 'readers',
    what: 'Readers must read and attest each published policy of the department, and each new version of it.',
    followUp: "Readers added must attest the department's published policies; readers removed no longer have to.",
    clearLabel: 'Clear readers',
  },
};

function peopleCount(count: number): string {
  return count === 1 ? '1 person' : `${count.toLocaleString('en-US')} people`;
}

function roleCount(count: number, role: DepartmentRole): string {
  const label = DEPARTMENT_ROLE_LABELS[role];
  return `${count.toLocaleString('en-US')} ${(count === 1 ? label.one : label.many).toLowerCase()}`;
}

/** Whether the signed-in user may open a policy section; true until the permission map says otherwise. */
function useMayOpen(projectId: string): (section: PolicySection) => boolean {
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  return (section) => permissions.data?.[permissionKey('policy_management', section)] !== false;
}

/**
 * /app/policy_management/{projectId}/department-reviewers, department-signers and department-readers: without a
 * department, every department with the people holding the role; with /{departmentId}, the form that sets them.
 */
export function DepartmentRolePage({ role }: { role: DepartmentRole }) {
  const { departmentId } = useParams();
  const info = ROLE_INFO[role];
  const editing = departmentId !== undefined;
  const title = editing ? info.editTitle : info.title;
  usePageTitle(title);
  const projectId = usePolicyProjectId();
  const id = departmentIdParam(departmentId);
  let body: ReactNode;
  if (!editing) body = <AssignView key={role} projectId={projectId} role={role} />;
  else if (id === null) {
    body = (
      <MissingDepartment
        back={policyRoute(projectId, info.section)}
        backLabel={`Back to ${info.title.toLowerCase()}`}
      />
    );
  } else body = <EditView key={`${role}-${id}`} projectId={projectId} role={role} departmentId={id} />;
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title={title}>{info.what}</PageHeading>
      {body}
    </Stack>
  );
}

/** Links to the same screen of the other two roles (for one department when `departmentId` is given). */
function RoleLinks({
  projectId,
  current,
  departmentId,
  label,
}: {
  projectId: string;
  current: DepartmentRole;
  departmentId?: number;
  label: string;
}) {
  const mayOpen = useMayOpen(projectId);
  return (
    <Group component="nav" aria-label={label} gap={4} wrap="wrap">
      {DEPARTMENT_ROLES.filter((role) => role === current || mayOpen(ROLE_INFO[role].section)).map((role) => (
        <Button
          key={role}
          component={Link}
          to={policyRoute(projectId, `${ROLE_INFO[role].section}${departmentId ? `/${departmentId}` : ''}`)}
          variant={role === current ? 'light' : 'subtle'}
          size="compact-sm"
          aria-current={role === current ? 'page' : undefined}
        >
          {DEPARTMENT_ROLE_LABELS[role].many}
        </Button>
      ))}
    </Group>
  );
}

// ---------------------------------------------------------------- every department

interface RoleRow {
  id: number;
  name: string;
  code: string;
  parent_id: number | null;
  document_count: number;
  people: DepartmentPerson[];
  open_reviews?: number;
  attestation?: { attested: number; required: number; rate: number | null };
}

interface ListState {
  data: RoleRow[] | undefined;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

function AssignView({ projectId, role }: { projectId: string; role: DepartmentRole }) {
  const info = ROLE_INFO[role];
  return (
    <>
      <Alert color="blue" variant="light" role="note" title={`What ${info.plural} do`}>
        <Stack gap={4}>
          <Text size="sm">{info.what}</Text>
          <Text size="sm">{info.followUp}</Text>
          <EligibleHint projectId={projectId} role={role} />
        </Stack>
      </Alert>
      {role === 'reviewer' && <ReviewerList projectId={projectId} />}
      {role === 'signer' && <SignerList projectId={projectId} />}
      {role === 'reader' && <ReaderList projectId={projectId} />}
    </>
  );
}

/** How many people may hold the role; a warning when nobody may. */
function EligibleHint({ projectId, role }: { projectId: string; role: DepartmentRole }) {
  return role === 'reader' ? (
    <ReaderEligibleHint projectId={projectId} />
  ) : (
    <ReviewerSignerEligibleHint projectId={projectId} role={role} />
  );
}

function ReaderEligibleHint({ projectId }: { projectId: string }) {
  const readers = useReaderCandidates(projectId);
  return <EligibleCount projectId={projectId} kind="reader" count={readers.data?.length} />;
}

function ReviewerSignerEligibleHint({ projectId, role }: { projectId: string; role: 'reviewer' | 'signer' }) {
  const lists = useDepartmentEditLists(projectId);
  return <EligibleCount projectId={projectId} kind={role} count={lists.data?.[`${role}s`].length} />;
}

function EligibleCount({ projectId, kind: role, count }: { projectId: string; kind: DepartmentRole; count?: number }) {
  if (count === undefined) return null;
  const roles = DEPARTMENT_ROLE_ELIGIBILITY[role].map((code) => roleLabel(code)).join(', ');
  if (count === 0) {
    return (
      <Text size="sm" fw={600} c="red.8" data-testid="eligible-hint">
        Nobody may be one of the {ROLE_INFO[role].plural} yet: give someone one of these main roles first: {roles}.{' '}
        <Anchor component={Link} to={policyRoute(projectId, 'edit-main-role')} size="sm" underline="always">
          Main roles
        </Anchor>
      </Text>
    );
  }
  return (
    <Text size="sm" data-testid="eligible-hint">
      {peopleCount(count)} may be {ROLE_INFO[role].plural} (main roles {roles}).
    </Text>
  );
}

function ReviewerList({ projectId }: { projectId: string }) {
  const list = useDepartmentReviewers(projectId);
  const rows = list.data?.map((department) => ({ ...department, people: department.reviewers }));
  return (
    <>
      <DepartmentsCard projectId={projectId} kind="reviewer" state={{ ...list, data: rows }} />
      <ReviewerManagementCard projectId={projectId} />
    </>
  );
}

function SignerList({ projectId }: { projectId: string }) {
  const list = useDepartmentAssignments(projectId);
  const rows = list.data?.map((department) => ({ ...department, people: department.signers }));
  return <DepartmentsCard projectId={projectId} kind="signer" state={{ ...list, data: rows }} />;
}

function ReaderList({ projectId }: { projectId: string }) {
  const list = useDepartmentReaders(projectId);
  const rows = list.data?.map((department) => ({
    ...department,
    people: department.readers,
    attestation: { attested: department.attested, required: department.required, rate: department.attestation_rate },
  }));
  return <DepartmentsCard projectId={projectId} kind="reader" state={{ ...list, data: rows }} />;
}

function PeoplePills({ people }: { people: DepartmentPerson[] }) {
  if (people.length === 0) {
    return (
      <Badge color="red.8" variant="light" radius="sm" data-testid="no-people">
        None
      </Badge>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      {[...people]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((person) => (
          <Pill key={person.id} title={person.email}>
            {person.name}
          </Pill>
        ))}
    </Group>
  );
}

function DepartmentsCard({
  projectId,
  kind: role,
  state,
}: {
  projectId: string;
  kind: DepartmentRole;
  state: ListState;
}) {
  const label = DEPARTMENT_ROLE_LABELS[role].many;
  return (
    <SectionCard
      title={`${label} by department`}
      action={<RoleLinks projectId={projectId} current={role} label="Department roles" />}
    >
      <QueryBody
        query={state}
        fallback="The departments could not be loaded. Please try again."
        loadingLabel="Loading the departments"
      >
        {(rows) => <DepartmentRoleTable projectId={projectId} role={role} departments={rows} />}
      </QueryBody>
    </SectionCard>
  );
}

/** Every department with the people holding the role; a summary line counts those with nobody. */
function DepartmentRoleTable({
  projectId,
  role,
  departments,
}: {
  projectId: string;
  role: DepartmentRole;
  departments: RoleRow[];
}) {
  const info = ROLE_INFO[role];
  const label = DEPARTMENT_ROLE_LABELS[role].many;
  const mayOpen = useMayOpen(projectId);
  const rows = inTreeOrder(departments);
  const missing = departments.filter((row) => row.people.length === 0).length;
  if (rows.length === 0) return <NoDepartments projectId={projectId} mayAdd={mayOpen('insert-department')} />;
  return (
    <>
      <Text size="sm" c={missing > 0 ? 'red.8' : 'dimmed'} fw={missing > 0 ? 600 : undefined} data-testid="summary">
        {missing === 0
          ? `Every department has ${info.plural}.`
          : `${missing.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} ${rows.length === 1 ? 'department has' : 'departments have'} no ${info.plural}.`}
      </Text>
      <Table.ScrollContainer minWidth={role === 'signer' ? 640 : 760}>
        <Table verticalSpacing="sm" highlightOnHover aria-label={`${label} by department`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Department</Table.Th>
              <Table.Th scope="col" ta="right">
                Policies
              </Table.Th>
              <Table.Th scope="col">{label}</Table.Th>
              {role === 'reviewer' && (
                <Table.Th scope="col" ta="right">
                  Open reviews
                </Table.Th>
              )}
              {role === 'reader' && <Table.Th scope="col">Attested</Table.Th>}
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ department, depth }) => (
              <Table.Tr
                key={department.id}
                data-department-id={department.id}
                data-missing={department.people.length === 0 || undefined}
              >
                <Table.Td style={nestedCellStyle(depth)}>
                  <DepartmentLabel name={department.name} code={department.code} />
                </Table.Td>
                <Table.Td ta="right">{department.document_count.toLocaleString('en-US')}</Table.Td>
                <Table.Td>
                  <PeoplePills people={department.people} />
                </Table.Td>
                {role === 'reviewer' && (
                  <Table.Td ta="right">{(department.open_reviews ?? 0).toLocaleString('en-US')}</Table.Td>
                )}
                {role === 'reader' && department.attestation && (
                  <Table.Td>
                    <AttestationBar {...department.attestation} label={department.name} />
                  </Table.Td>
                )}
                <Table.Td>
                  <Group justify="flex-end" wrap="nowrap">
                    <Button
                      component={Link}
                      to={policyRoute(projectId, `${info.section}/${department.id}`)}
                      variant="default"
                      size="compact-sm"
                      aria-label={`Edit ${info.plural} of ${department.name}`}
                    >
                      Edit
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

function ReviewerManagementCard({ projectId }: { projectId: string }) {
  const data = useReviewerManagement(projectId);
  return (
    <SectionCard title="Reviewers and their departments">
      <QueryBody
        query={data}
        fallback="The reviewers could not be loaded. Please try again."
        loadingLabel="Loading the reviewers"
        rows={3}
      >
        {(management) => <ReviewerTable projectId={projectId} management={management} />}
      </QueryBody>
    </SectionCard>
  );
}

/** Each reviewer with the departments they review, and those who may review but review none. */
function ReviewerTable({ projectId, management }: { projectId: string; management: ReviewerManagement }) {
  const reviewers = [...management.reviewers].sort((a, b) => a.name.localeCompare(b.name));
  const unassigned = [...management.unassigned].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      {reviewers.length === 0 ? (
        <Text>Nobody reviews a department yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table verticalSpacing="sm" aria-label="Reviewers and their departments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Reviewer</Table.Th>
                <Table.Th scope="col">Departments</Table.Th>
                <Table.Th scope="col" ta="right">
                  Open reviews
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reviewers.map((reviewer) => (
                <Table.Tr key={reviewer.id} data-reviewer-id={reviewer.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {reviewer.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {reviewer.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      {reviewer.departments.map((department) => (
                        <Anchor
                          key={department.id}
                          component={Link}
                          to={policyRoute(projectId, `department-reviewers/${department.id}`)}
                          size="sm"
                        >
                          {department.name} ({department.code})
                        </Anchor>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{reviewer.open_reviews.toLocaleString('en-US')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Stack gap={4}>
        <Text size="sm" fw={700}>
          May review, but reviews no department
        </Text>
        {unassigned.length === 0 ? (
          <Text size="sm" c="dimmed">
            Everyone who may review reviews at least one department.
          </Text>
        ) : (
          <Group gap={4} wrap="wrap" data-testid="unassigned-reviewers">
            {unassigned.map((person) => (
              <Pill key={person.id} title={person.email}>
                {person.name}
              </Pill>
            ))}
          </Group>
        )}
      </Stack>
    </>
  );
}

// ---------------------------------------------------------------- one department

interface EditData {
  department: { id: number; name: string; code: string };
  /** Who holds the role now. */
  people: DepartmentPerson[];
  /** Who may hold it. */
  candidates: DepartmentPerson[];
  /** Signers only: every person of the department, which "Clear all assignments" removes. */
  everyone?: { reviewers: number; signers: number; readers: number };
}

async function loadEditData(
  projectId: string,
  role: DepartmentRole,
  departmentId: number,
  signal: AbortSignal,
): Promise<EditData> {
  if (role === 'signer') {
    const { department, candidates } = await getEditAssignmentData(projectId, departmentId, signal);
    return {
      department,
      people: department.signers,
      candidates: candidates.signers,
      everyone: {
        reviewers: department.reviewers.length,
        signers: department.signers.length,
        readers: department.readers.length,
      },
    };
  }
  if (role === 'reader') {
    const { department, candidates } = await getReaderEditData(projectId, departmentId, signal);
    return { department, people: department.readers, candidates };
  }
  const { department, candidates } = await getReviewerEditData(projectId, departmentId, signal);
  return { department, people: department.reviewers, candidates };
}

async function saveRole(projectId: string, role: DepartmentRole, departmentId: number, userIds: number[]) {
  if (role === 'signer') await assignDepartmentRoles(projectId, departmentId, { signer_ids: userIds });
  else if (role === 'reader') await assignDepartmentReaders(projectId, departmentId, userIds);
  else await updateDepartmentReviewers(projectId, departmentId, userIds);
}

async function clearRole(projectId: string, role: DepartmentRole, departmentId: number) {
  if (role === 'signer') await clearDepartmentAssignments(projectId, departmentId);
  else if (role === 'reader') await clearDepartmentReaders(projectId, departmentId);
  else await removeAllDepartmentReviewers(projectId, departmentId);
}

function EditView({
  projectId,
  role,
  departmentId,
}: {
  projectId: string;
  role: DepartmentRole;
  departmentId: number;
}) {
  const info = ROLE_INFO[role];
  const data = useQuery({
    queryKey: [...departmentPeopleKey(projectId), 'edit', role, departmentId],
    queryFn: ({ signal }) => loadEditData(projectId, role, departmentId, signal),
  });
  if (data.data) {
    // A fresh form whenever the saved people change.
    const saved = data.data.people.map((person) => person.id).join(',');
    return <EditForm key={saved} projectId={projectId} role={role} data={data.data} />;
  }
  if (data.isError) {
    if (isNotFound(data.error)) {
      return (
        <MissingDepartment
          back={policyRoute(projectId, info.section)}
          backLabel={`Back to ${info.title.toLowerCase()}`}
        />
      );
    }
    return (
      <LoadFailure
        error={data.error}
        fallback="The department could not be loaded. Please try again."
        retrying={data.isFetching}
        onRetry={() => void data.refetch()}
      />
    );
  }
  return <LoadingRows label="Loading the department" rows={5} />;
}

/**
 * The messages of a 400 that belong to the list field (`user_ids`, `user_ids.3`, `signer_ids.0`), each naming the
 * person it is about when the message does not already.
 */
function listErrors(error: unknown, field: string, sent: number[], names: Map<number, string>): string | null {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return null;
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return null;
  const messages: string[] = [];
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    const match = new RegExp(`^${field}(?:\\.(\\d+))?(?:\\.|$)`).exec(key);
    const first = Array.isArray(value) ? value[0] : value;
    if (!match || typeof first !== 'string' || !first.trim()) continue;
    const userId = match[1] === undefined ? undefined : sent[Number(match[1])];
    const name = userId === undefined ? undefined : names.get(userId);
    const message = name && !first.includes(name) ? `${name}: ${first}` : first;
    if (!messages.includes(message)) messages.push(message);
  }
  return messages.length > 0 ? messages.join(' ') : null;
}

function clearMessage(role: DepartmentRole, data: EditData): { title: string; message: string; done: string } {
  const name = `${data.department.name} (${data.department.code})`;
  if (role === 'signer') {
    const all = data.everyone ?? { reviewers: 0, signers: data.people.length, readers: 0 };
    return {
      title: `Clear all assignments of ${data.department.name}?`,
      message: `This removes everyone from ${name}, not only the signers: ${roleCount(all.reviewers, 'reviewer')}, ${roleCount(all.signers, 'signer')} and ${roleCount(all.readers, 'reader')}. Open review rounds stop waiting for them, and the department's drafts cannot go through review and signature until people are chosen again.`,
      done: `Cleared all assignments of ${data.department.name}.`,
    };
  }
  if (role === 'reader') {
    return {
      title: `Clear the readers of ${data.department.name}?`,
      message: `${name} will have no readers: ${peopleCount(data.people.length)} no longer ${data.people.length === 1 ? 'has' : 'have'} to read and attest its published policies. Their past attestations are kept.`,
      done: `Cleared the readers of ${data.department.name}.`,
    };
  }
  return {
    title: `Remove all reviewers of ${data.department.name}?`,
    message: `${name} will have no reviewers: ${peopleCount(data.people.length)} ${data.people.length === 1 ? 'stops' : 'stop'} reviewing its policies, open review rounds stop waiting for them, and its drafts cannot be sent for review until reviewers are chosen again.`,
    done: `Removed all reviewers of ${data.department.name}.`,
  };
}

function EditForm({ projectId, role, data }: { projectId: string; role: DepartmentRole; data: EditData }) {
  const info = ROLE_INFO[role];
  const label = DEPARTMENT_ROLE_LABELS[role].many;
  const { department } = data;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (userIds: number[]) => saveRole(projectId, role, department.id, userIds),
    onSuccess: () => invalidateDepartmentPeople(queryClient, projectId),
  });
  const clear = useMutation({
    mutationFn: () => clearRole(projectId, role, department.id),
    onSuccess: () => invalidateDepartmentPeople(queryClient, projectId),
  });
  const savedIds = data.people.map((person) => String(person.id));
  const [selected, setSelected] = useState<string[]>(savedIds);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const everyone = new Map<number, DepartmentPerson>();
  for (const person of [...data.candidates, ...data.people])
    if (!everyone.has(person.id)) everyone.set(person.id, person);
  const eligible = new Set(data.candidates.map((person) => person.id));
  const nameCount = new Map<string, number>();
  for (const person of everyone.values()) nameCount.set(person.name, (nameCount.get(person.name) ?? 0) + 1);
  const options = [...everyone.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((person) => ({
      value: String(person.id),
      label:
        (nameCount.get(person.name)! > 1 ? `${person.name} (${person.email})` : person.name) +
        (eligible.has(person.id) ? '' : ' (may no longer hold this role)'),
    }));
  const names = new Map([...everyone.values()].map((person) => [person.id, person.name]));

  const changed = selected.length !== savedIds.length || selected.some((value) => !savedIds.includes(value));
  const busy = save.isPending || clear.isPending;
  const clearCount =
    role === 'signer' && data.everyone
      ? data.everyone.reviewers + data.everyone.signers + data.everyone.readers
      : data.people.length;
  const confirm = clearMessage(role, data);
  const back = policyRoute(projectId, info.section);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!changed || busy) return;
    setFailure(null);
    setFieldError(null);
    const userIds = selected.map(Number);
    try {
      await save.mutateAsync(userIds);
      toast.success(`Saved the ${info.plural} of ${department.name}.`);
      navigate(back);
    } catch (error) {
      const onField = listErrors(error, role === 'signer' ? 'signer_ids' : 'user_ids', userIds, names);
      setFieldError(onField);
      if (!onField) setFailure(messageFor(error, `The ${info.plural} could not be saved. Please try again.`));
    }
  }

  async function clearNow() {
    setConfirming(false);
    setFailure(null);
    setFieldError(null);
    try {
      await clear.mutateAsync();
      toast.success(confirm.done);
    } catch (error) {
      setFailure(messageFor(error, 'The people could not be removed. Please try again.'));
    }
  }

  return (
    <>
      <SectionCard
        title={`${department.name} (${department.code})`}
        action={
          <RoleLinks
            projectId={projectId}
            current={role}
            departmentId={department.id}
            label={`Roles of ${department.name}`}
          />
        }
      >
        <Alert color="blue" variant="light" role="note" title={`What ${info.plural} do`}>
          <Stack gap={4}>
            <Text size="sm">{info.what}</Text>
            <Text size="sm">{info.followUp}</Text>
          </Stack>
        </Alert>
        <Stack gap={6}>
          <Text size="sm" fw={700} id="current-people-heading">
            Current {info.plural} ({data.people.length.toLocaleString('en-US')})
          </Text>
          {data.people.length === 0 ? (
            <Group gap="xs">
              <Badge color="red.8" variant="light" radius="sm">
                None
              </Badge>
              <Text size="sm" c="dimmed">
                This department has no {info.plural} yet.
              </Text>
            </Group>
          ) : (
            <List size="sm" spacing={2} aria-labelledby="current-people-heading" data-testid="current-people">
              {[...data.people]
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((person) => (
                  <List.Item key={person.id}>
                    <Text span size="sm" fw={600}>
                      {person.name}
                    </Text>{' '}
                    <Text span size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {person.email} · {roleLabel(person.main_role)}
                    </Text>
                  </List.Item>
                ))}
            </List>
          )}
        </Stack>
      </SectionCard>

      <SectionCard title={`Choose the ${info.plural}`}>
        {failure && (
          <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <MultiSelect
              label={label}
              description={`Everyone chosen here becomes one of the ${info.plural} of ${department.name}; people left out stop being ${info.plural}.`}
              placeholder={selected.length === 0 ? 'Search people' : undefined}
              data={options}
              value={selected}
              onChange={(value) => {
                setSelected(value);
                setFieldError(null);
              }}
              error={fieldError}
              searchable
              clearable
              nothingFoundMessage="Nobody matches"
              disabled={busy}
              maw={720}
              comboboxProps={{ withinPortal: true }}
            />
            {options.length === 0 && (
              <Text size="sm" c="red.8">
                Nobody may be one of the {info.plural}: give someone one of these main roles first:{' '}
                {DEPARTMENT_ROLE_ELIGIBILITY[role].map((code) => roleLabel(code)).join(', ')}.
              </Text>
            )}
            <Group gap="sm" justify="space-between" wrap="wrap">
              <Group gap="sm">
                <Button type="submit" loading={save.isPending} disabled={!changed || clear.isPending}>
                  Save {info.plural}
                </Button>
                {changed && (
                  <Button
                    variant="default"
                    disabled={busy}
                    onClick={() => {
                      setSelected(savedIds);
                      setFieldError(null);
                      setFailure(null);
                    }}
                  >
                    Undo changes
                  </Button>
                )}
                <Anchor component={Link} to={back} size="sm">
                  Back to {info.title.toLowerCase()}
                </Anchor>
              </Group>
              <Button
                variant="light"
                color="red.8"
                loading={clear.isPending}
                disabled={clearCount === 0 || save.isPending}
                onClick={() => {
                  setFailure(null);
                  setConfirming(true);
                }}
              >
                {info.clearLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      </SectionCard>

      <ConfirmActionModal
        opened={confirming}
        title={confirm.title}
        message={confirm.message}
        confirmLabel={info.clearLabel}
        danger
        onConfirm={() => void clearNow()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
