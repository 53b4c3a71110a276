import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { PAGE_GRANT_LEVELS, type PageGrantLevel } from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { FailureAlert, PageHeading, QueryBody, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { indexedErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type PagePermissionRow,
  type PagePermissions,
  usePagePermissions,
  useSavePagePermissions,
} from '../api/people-page-permissions';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const TITLE = 'Page permissions';
export const NO_PAGES = 'No pages found.';
export const RESTRICTED_HELP =
  'Restricted pages are hidden from everyone without a grant, and so is their branch. Monitoring administrators and the page owner still see them.';

const LEVEL_LABEL: Record<PageGrantLevel, string> = { view: 'View', edit: 'Edit', manage: 'Manage' };
const LEVEL_OPTIONS = PAGE_GRANT_LEVELS.map((level) => ({ value: level, label: LEVEL_LABEL[level] }));

const pageName = (page: { number: string | null; title: string }) =>
  page.number ? `${page.number} ${page.title}` : page.title;

/** A grant being edited: a role (`r{id}`) or a person (`u{id}`) with its level. */
interface DraftGrant {
  key: string;
  name: string;
  level: PageGrantLevel;
}

/**
 * /app/monitoring/{projectId}/page-permissions: the pages (tree order, numbered and indented) against the monitoring
 * roles: each cell shows the role's effective level, marked inherited (from which page) or explicit. A page's button
 * opens the editor: the restricted switch and the page's own grants.
 */
export function PagePermissionsPage() {
  usePageTitle(TITLE);
  const projectId = useMonitoringProjectId();
  const permissions = usePagePermissions(projectId);
  const [editingId, setEditingId] = useState<number | null>(null);
  const editing = permissions.data?.pages.find((page) => page.id === editingId) ?? null;

  return (
    <Stack gap="lg" w="100%" maw={1400}>
      <PageHeading title={TITLE}>
        Who may view, edit or manage each page. A grant applies to the page and the pages below it, down to the next
        restricted page; pages with no restricted page above them are open to every monitoring user.{' '}
        <Link to={monitoringRoute(projectId, 'page-role-manager')}>Manage the roles</Link>
      </PageHeading>
      <Legend />
      <SectionCard id="matrix-heading" title="Pages and roles">
        <QueryBody
          query={permissions}
          fallback="The page permissions could not be loaded. Please try again."
          loadingLabel="Loading the page permissions"
          rows={6}
        >
          {(data) => (data.pages.length === 0 ? <Text>{NO_PAGES}</Text> : <Matrix data={data} onEdit={setEditingId} />)}
        </QueryBody>
      </SectionCard>
      {permissions.data && editing && (
        <PermissionEditor
          key={editing.id}
          projectId={projectId}
          page={editing}
          data={permissions.data}
          onClose={() => setEditingId(null)}
        />
      )}
    </Stack>
  );
}

function Legend() {
  return (
    <Group gap="md" wrap="wrap" aria-label="Legend" role="group">
      <Group gap={6}>
        <Badge variant="filled" size="sm" tt="none">
          Edit
        </Badge>
        <Text size="sm">explicit grant on the page</Text>
      </Group>
      <Group gap={6}>
        <Badge variant="light" color="blue.8" size="sm" tt="none">
          ↓ Edit
        </Badge>
        <Text size="sm">inherited from a page above</Text>
      </Group>
      <Group gap={6}>
        <Badge variant="light" color="orange.9" size="sm" tt="none">
          Restricted
        </Badge>
        <Text size="sm">hidden without a grant</Text>
      </Group>
    </Group>
  );
}

/** The effective grant of one role or person on a page, as a badge with its explanation. */
function LevelMark({ grant, subject }: { grant: PagePermissionRow['effective'][number]; subject: string }) {
  const inherited = grant.inherited_from;
  const explanation = inherited
    ? `${subject}: ${LEVEL_LABEL[grant.level]}, inherited from ${pageName(inherited)}`
    : `${subject}: ${LEVEL_LABEL[grant.level]}, explicit on this page`;
  return (
    <Tooltip label={explanation} withArrow multiline maw={280} events={{ hover: true, focus: true, touch: true }}>
      <Badge
        variant={inherited ? 'light' : 'filled'}
        color="blue.8"
        size="sm"
        tt="none"
        tabIndex={0}
        aria-label={explanation}
        data-inherited={inherited ? inherited.id : undefined}
      >
        {inherited ? `↓ ${LEVEL_LABEL[grant.level]}` : LEVEL_LABEL[grant.level]}
      </Badge>
    </Tooltip>
  );
}

function Matrix({ data, onEdit }: { data: PagePermissions; onEdit: (pageId: number) => void }) {
  return (
    <Table.ScrollContainer minWidth={Math.max(560, 320 + data.roles.length * 130)}>
      <Table verticalSpacing="xs" withColumnBorders stickyHeader aria-labelledby="matrix-heading">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" miw={260}>
              Page
            </Table.Th>
            {data.roles.map((role) => (
              <Table.Th scope="col" key={role.id} data-role-column={role.id}>
                {role.name}
              </Table.Th>
            ))}
            <Table.Th scope="col" miw={200}>
              People
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.pages.map((page) => {
            const people = page.effective.filter((grant) => grant.user !== null);
            return (
              <Table.Tr key={page.id} data-page-id={page.id}>
                <Table.Th scope="row" fw="normal">
                  <Group gap={6} wrap="nowrap" pl={(page.depth - 1) * 20}>
                    <UnstyledButton
                      onClick={() => onEdit(page.id)}
                      aria-label={`Edit permissions of ${pageName(page)}`}
                      style={{ textAlign: 'left', textDecoration: 'underline', textUnderlineOffset: 3 }}
                    >
                      {page.number && (
                        <Text span fw={600} mr={6}>
                          {page.number}
                        </Text>
                      )}
                      {page.title}
                    </UnstyledButton>
                    {page.restricted ? (
                      <Badge variant="light" color="orange.9" size="xs" tt="none">
                        Restricted
                      </Badge>
                    ) : page.open ? (
                      <Badge variant="default" size="xs" tt="none" c="dimmed" title="Every monitoring user views it">
                        Open
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Th>
                {data.roles.map((role) => {
                  const grant = page.effective.find((item) => item.role?.id === role.id);
                  return (
                    <Table.Td key={role.id} data-role-id={role.id}>
                      {grant ? (
                        <LevelMark grant={grant} subject={role.name} />
                      ) : (
                        <Text span size="sm" c="dimmed" aria-label={`${role.name}: no grant`}>
                          —
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
                <Table.Td>
                  {people.length === 0 ? (
                    <Text span size="sm" c="dimmed">
                      —
                    </Text>
                  ) : (
                    <Group gap={4}>
                      {people.map((grant) => (
                        <Group key={grant.user!.id} gap={4} wrap="nowrap">
                          <Text span size="sm">
                            {grant.user!.name}
                          </Text>
                          <LevelMark grant={grant} subject={grant.user!.name} />
                        </Group>
                      ))}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function PermissionEditor({
  projectId,
  page,
  data,
  onClose,
}: {
  projectId: string;
  page: PagePermissionRow;
  data: PagePermissions;
  onClose: () => void;
}) {
  const save = useSavePagePermissions(projectId);
  const [restricted, setRestricted] = useState(page.restricted);
  const [grants, setGrants] = useState<DraftGrant[]>(() =>
    page.grants.map((grant) => ({
      key: grant.role ? `r${grant.role.id}` : `u${grant.user!.id}`,
      name: grant.role?.name ?? grant.user!.name,
      level: grant.level,
    })),
  );
  const [adding, setAdding] = useState<string | null>(null);
  const [addLevel, setAddLevel] = useState<PageGrantLevel>('view');
  const [rowErrors, setRowErrors] = useState<ReadonlyMap<number, string>>(new Map());
  const [failure, setFailure] = useState<string | null>(null);

  const taken = new Set(grants.map((grant) => grant.key));
  const choices = [
    {
      group: 'Roles',
      items: data.roles
        .filter((role) => !taken.has(`r${role.id}`))
        .map((role) => ({ value: `r${role.id}`, label: role.name })),
    },
    {
      group: 'People',
      items: data.people
        .filter((person) => !taken.has(`u${person.id}`))
        .map((person) => ({ value: `u${person.id}`, label: person.name })),
    },
  ].filter((group) => group.items.length > 0);
  const nameOf = (key: string) =>
    choices.flatMap((group) => group.items).find((item) => item.value === key)?.label ?? key;
  const inherited = page.effective.filter((grant) => grant.inherited_from !== null);

  function add() {
    if (!adding) return;
    setGrants((previous) => [...previous, { key: adding, name: nameOf(adding), level: addLevel }]);
    setAdding(null);
    setAddLevel('view');
  }

  async function submit() {
    if (save.isPending) return;
    setFailure(null);
    setRowErrors(new Map());
    const body = {
      restricted,
      grants: grants.map((grant) => ({
        ...(grant.key.startsWith('r')
          ? { role_id: Number(grant.key.slice(1)) }
          : { user_id: Number(grant.key.slice(1)) }),
        level: grant.level,
      })),
    };
    try {
      await save.mutateAsync({ pageId: page.id, body });
      toast.success(`Saved the permissions of ${pageName(page)}.`);
      onClose();
    } catch (error) {
      const byIndex = indexedErrors(error, /^grants\.(\d+)(?:\.|$)/);
      setRowErrors(byIndex);
      setFailure(
        messageFor(error, 'The permissions could not be saved. Please try again.') +
          (byIndex.size > 0 ? ' Nothing was saved; see the marked grants.' : ''),
      );
    }
  }

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="md"
      title={`Permissions of ${pageName(page)}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="lg">
        <FailureAlert message={failure} onClose={() => setFailure(null)} />
        <Switch
          label="Restricted"
          description={RESTRICTED_HELP}
          checked={restricted}
          onChange={(event) => setRestricted(event.currentTarget.checked)}
        />
        {!restricted && !page.open && (
          <Alert color="blue" variant="light">
            A page above this one is restricted, so this page is hidden from everyone without a grant too.
          </Alert>
        )}
        <Stack gap="xs" component="section" aria-labelledby="grants-heading">
          <Text fw={600} id="grants-heading">
            Grants on this page
          </Text>
          {grants.length === 0 ? (
            <Text size="sm" c="dimmed">
              No grants on this page.
            </Text>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {grants.map((grant, index) => (
                <li key={grant.key} data-grant={grant.key}>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Text size="sm" style={{ flex: 1, overflowWrap: 'anywhere' }} pt={6}>
                      {grant.name}
                      <Text span size="xs" c="dimmed" ml={6}>
                        {grant.key.startsWith('r') ? 'role' : 'person'}
                      </Text>
                    </Text>
                    <Select
                      aria-label={`Level of ${grant.name}`}
                      data={LEVEL_OPTIONS}
                      value={grant.level}
                      allowDeselect={false}
                      w={120}
                      error={rowErrors.get(index)}
                      onChange={(value) =>
                        value &&
                        setGrants((previous) =>
                          previous.map((item) =>
                            item.key === grant.key ? { ...item, level: value as PageGrantLevel } : item,
                          ),
                        )
                      }
                      comboboxProps={{ withinPortal: true }}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red.8"
                      size="lg"
                      aria-label={`Remove the grant of ${grant.name}`}
                      onClick={() => setGrants((previous) => previous.filter((item) => item.key !== grant.key))}
                    >
                      <span aria-hidden="true">✕</span>
                    </ActionIcon>
                  </Group>
                </li>
              ))}
            </Stack>
          )}
          <Group gap="xs" align="flex-end" wrap="wrap">
            <Select
              label="Add a role or person"
              placeholder={choices.length === 0 ? 'Everyone has a grant' : 'Choose'}
              data={choices}
              value={adding}
              onChange={setAdding}
              searchable
              disabled={choices.length === 0}
              style={{ flex: 1, minWidth: 180 }}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="Level"
              data={LEVEL_OPTIONS}
              value={addLevel}
              allowDeselect={false}
              onChange={(value) => value && setAddLevel(value as PageGrantLevel)}
              w={120}
              comboboxProps={{ withinPortal: true }}
            />
            <Button variant="default" onClick={add} disabled={!adding}>
              Add grant
            </Button>
          </Group>
        </Stack>
        {restricted && page.parent_id !== null && (
          <Text size="sm" c="dimmed">
            Grants on the pages above do not apply to a restricted page.
          </Text>
        )}
        {!restricted && inherited.length > 0 && (
          <Stack gap="xs" component="section" aria-labelledby="inherited-heading">
            <Text fw={600} id="inherited-heading">
              Inherited from pages above
            </Text>
            <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {inherited.map((grant) => (
                <Text component="li" size="sm" key={grant.role ? `r${grant.role.id}` : `u${grant.user!.id}`}>
                  {grant.role?.name ?? grant.user?.name}: {LEVEL_LABEL[grant.level]} (from{' '}
                  {pageName(grant.inherited_from!)})
                </Text>
              ))}
            </Stack>
            <Text size="xs" c="dimmed">
              A grant here adds to an inherited one; the stronger level applies.
            </Text>
          </Stack>
        )}
        <DialogActions onCancel={onClose}>
          <Button onClick={() => void submit()} loading={save.isPending}>
            Save
          </Button>
        </DialogActions>
      </Stack>
    </Drawer>
  );
}
