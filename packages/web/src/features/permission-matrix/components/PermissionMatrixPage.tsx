import {
  Alert,
  Button,
  EmptyState,
  Group,
  List,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type MemberProject, sectionLabel } from '@portal/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useBlocker, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { LoadFailure, QueryFailure } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { APP_INFO } from '../../../lib/apps';
import { useProjects } from '../../../lib/project/get-projects';
import { usePageTitle } from '../../../lib/use-page-title';
import { useCopyPermissionMatrix } from '../api/copy-permission-matrix';
import { type PermissionApp, type PermissionMatrix, usePermissionMatrix } from '../api/get-permission-matrix';
import { useResetPermissionMatrix } from '../api/reset-permission-matrix';
import { useSavePermissionMatrix } from '../api/save-permission-matrix';
import { CopyMatrixModal } from './CopyMatrixModal';
import { LockIcon, MatrixTable } from './MatrixTable';
import { buildRows, type MatrixEdits, type MatrixRow, setRole } from './matrix-draft';

export const MATRIX_TITLES: Record<PermissionApp, string> = {
  monitoring: 'Monitoring Permissions',
  chart_review: 'Chart Review Permissions',
  policy_management: 'Policy Management Permissions',
};
export const LOCKED_NOTE = 'A section with no role is locked: only superadmins can open it.';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * /superadmin/monitoring-permissions, /superadmin/chart-review-permissions and /superadmin/policy-management-permissions:
 * which main roles may open each section of the app, project by project.
 */
export function PermissionMatrixPage({ app }: { app: PermissionApp }) {
  // A new screen (and no edits carried over) when the route switches app.
  return <MatrixScreen key={app} app={app} />;
}

function MatrixScreen({ app }: { app: PermissionApp }) {
  const title = MATRIX_TITLES[app];
  usePageTitle(title);
  const projects = useProjects(true);

  let content: ReactNode;
  if (projects.isPending) {
    content = (
      <Stack gap="md" role="status" aria-label="Loading projects">
        <Skeleton height={60} maw={360} />
        <MatrixSkeleton />
      </Stack>
    );
  } else if (projects.isError) {
    content = <QueryFailure query={projects} fallback="The projects could not be loaded. Please try again." />;
  } else if (projects.data.length === 0) {
    content = (
      <Paper withBorder radius="md" p="xl">
        <EmptyState
          title="No projects yet"
          description="Permissions are set per project. Create a project first, then set who may open each section."
        >
          <EmptyState.Actions>
            <Button component={Link} to="/superadmin/projects">
              Go to Projects
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Paper>
    );
  } else {
    content = <MatrixWorkspace app={app} projects={projects.data} />;
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {title}
        </Title>
        <Text c="dimmed">Choose which {APP_INFO[app].name} roles may open each section, project by project.</Text>
      </Stack>
      {content}
    </Stack>
  );
}

function MatrixSkeleton() {
  return (
    <Stack gap={6} aria-hidden="true">
      {[0, 1, 2, 3, 4, 5].map((index) => (
        <Skeleton key={index} height={40} radius="sm" />
      ))}
    </Stack>
  );
}

interface MatrixWorkspaceProps {
  app: PermissionApp;
  projects: MemberProject[];
}

function MatrixWorkspace({ app, projects }: MatrixWorkspaceProps) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('project');
  const project = projects.find((item) => String(item.id) === requested) ?? projects[0]!;
  const matrix = usePermissionMatrix(app, project.id);
  const save = useSavePermissionMatrix(app);
  const copy = useCopyPermissionMatrix(app);
  const reset = useResetPermissionMatrix(app);
  const busy = save.isPending || copy.isPending || reset.isPending;

  // Edits belong to the project they were made in; another project starts clean.
  const [edits, setEdits] = useState<{ projectId: number; rows: MatrixEdits } | null>(null);
  const current = edits?.projectId === project.id ? edits.rows : {};
  const rows = matrix.data ? buildRows(matrix.data, current) : [];
  const unsaved = rows.filter((row) => row.unsaved);
  const dirty = unsaved.length > 0;

  const [asking, setAsking] = useState<'copy' | 'reset' | 'lock' | null>(null);

  // The URL always names the project shown (the first one when it names none or an unknown one).
  useEffect(() => {
    if (requested !== String(project.id)) {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set('project', String(project.id));
          return next;
        },
        { replace: true },
      );
    }
  }, [requested, project.id, setParams]);

  // Leaving the page or switching project with unsaved edits asks first.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!dirty) return false;
    if (currentLocation.pathname !== nextLocation.pathname) return true;
    return new URLSearchParams(nextLocation.search).get('project') !== String(project.id);
  });
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  function edit(path: string, change: (allowed: string[], roles: readonly string[]) => string[]) {
    if (!matrix.data) return;
    const row = rows.find((item) => item.path === path);
    if (!row) return;
    const next = change(row.allowed, matrix.data.roles);
    setEdits({ projectId: project.id, rows: { ...current, [path]: next } });
  }

  function toggle(path: string, role: string, on: boolean) {
    edit(path, (allowed, roles) => setRole(allowed, role, on, roles));
  }

  function toggleAll(path: string, on: boolean) {
    edit(path, (allowed, roles) => {
      const extras = allowed.filter((role) => !roles.some((column) => column.toLowerCase() === role.toLowerCase()));
      return on ? [...roles, ...extras] : extras;
    });
  }

  function chooseProject(value: string | null) {
    if (!value || value === String(project.id)) return;
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('project', value);
        return next;
      },
      { replace: false },
    );
  }

  async function saveNow() {
    if (!matrix.data) return;
    setAsking(null);
    try {
      await save.mutateAsync({
        project_id: project.id,
        sections: rows.map((row) => ({ path: row.path, allowed_roles: row.allowed })),
      });
      setEdits(null);
      toast.success(`Permissions saved for ${project.name}.`);
    } catch (error) {
      toast.error(messageFor(error, 'The permissions could not be saved. Please try again.'));
    }
  }

  function requestSave() {
    if (rows.some((row) => row.newlyLocked)) setAsking('lock');
    else void saveNow();
  }

  async function resetNow() {
    setAsking(null);
    try {
      await reset.mutateAsync(project.id);
      setEdits(null);
      toast.success(`Permissions of ${project.name} reset to the defaults.`);
    } catch (error) {
      toast.error(messageFor(error, 'The permissions could not be reset. Please try again.'));
    }
  }

  async function copyNow(from: MemberProject): Promise<void> {
    await copy.mutateAsync({ projectId: project.id, fromProjectId: from.id });
    setEdits(null);
    setAsking(null);
    toast.success(`Permissions copied from ${from.name}.`);
  }

  const others = projects.filter((item) => item.id !== project.id);
  const appName = APP_INFO[app].name;
  const unsavedNote = dirty ? ` Your ${plural(unsaved.length, 'unsaved change', 'unsaved changes')} will be lost.` : '';

  return (
    <Stack gap="md">
      <Group align="flex-end" justify="space-between" gap="sm">
        <Select
          label="Project"
          searchable
          data={projects.map((item) => ({ value: String(item.id), label: item.name }))}
          value={String(project.id)}
          onChange={chooseProject}
          allowDeselect={false}
          nothingFoundMessage="No project matches."
          w={{ base: '100%', sm: 360 }}
          disabled={busy}
        />
        <Group gap="sm">
          {others.length > 0 && (
            <Button
              variant="default"
              onClick={() => setAsking('copy')}
              disabled={busy || !matrix.data}
              loading={copy.isPending}
            >
              Copy from another project
            </Button>
          )}
          <Button
            variant="default"
            onClick={() => setAsking('reset')}
            disabled={busy || !matrix.data}
            loading={reset.isPending}
          >
            Reset to defaults
          </Button>
        </Group>
      </Group>

      {!project.active_apps.includes(app) && (
        <Alert color="blue" variant="light">
          {project.name} does not use {appName} yet. These permissions apply once a superadmin switches the app on.
        </Alert>
      )}

      <MatrixPanel
        app={app}
        matrix={matrix.data}
        pending={matrix.isPending}
        error={matrix.isError ? matrix.error : null}
        retrying={matrix.isFetching}
        onRetry={() => void matrix.refetch()}
        rows={rows}
        disabled={busy}
        onToggle={toggle}
        onToggleAll={toggleAll}
      />

      {matrix.data && matrix.data.sections.length > 0 && (
        <Paper
          withBorder
          radius="md"
          p="sm"
          shadow={dirty ? 'sm' : undefined}
          style={{ position: 'sticky', bottom: 8, zIndex: 4 }}
        >
          <Group justify="space-between" gap="sm">
            <Text size="sm" fw={dirty ? 700 : 400} c={dirty ? undefined : 'dimmed'} aria-live="polite">
              {dirty ? `${plural(unsaved.length, 'row', 'rows')} changed, not saved yet` : 'No unsaved changes'}
            </Text>
            <Group gap="sm">
              <Button variant="default" disabled={!dirty || busy} onClick={() => setEdits(null)}>
                Discard
              </Button>
              <Button disabled={!dirty || (busy && !save.isPending)} loading={save.isPending} onClick={requestSave}>
                Save
              </Button>
            </Group>
          </Group>
        </Paper>
      )}

      <LockConfirmModal
        app={app}
        opened={asking === 'lock'}
        rows={rows.filter((row) => row.newlyLocked)}
        onConfirm={() => void saveNow()}
        onCancel={() => setAsking(null)}
      />
      <ConfirmActionModal
        opened={asking === 'reset'}
        title="Reset to defaults?"
        message={`Every ${appName} section of ${project.name} goes back to the default roles. The changes made for this project are lost.${unsavedNote}`}
        confirmLabel="Reset to defaults"
        danger
        onConfirm={() => void resetNow()}
        onCancel={() => setAsking(null)}
      />
      <CopyMatrixModal
        opened={asking === 'copy'}
        appName={appName}
        target={project}
        sources={others}
        unsavedNote={unsavedNote}
        onCopy={copyNow}
        onClose={() => setAsking(null)}
      />
      <ConfirmActionModal
        opened={blocker.state === 'blocked'}
        title="Discard unsaved changes?"
        message={`You changed ${plural(unsaved.length, 'row', 'rows')} of ${project.name} without saving. Leaving now discards ${unsaved.length === 1 ? 'it' : 'them'}.`}
        confirmLabel="Discard changes"
        danger
        onConfirm={() => {
          setEdits(null);
          blocker.proceed?.();
        }}
        onCancel={() => blocker.reset?.()}
      />
    </Stack>
  );
}

interface MatrixPanelProps {
  app: PermissionApp;
  matrix: PermissionMatrix | undefined;
  pending: boolean;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
  rows: MatrixRow[];
  disabled: boolean;
  onToggle: (path: string, role: string, on: boolean) => void;
  onToggleAll: (path: string, on: boolean) => void;
}

function MatrixPanel({
  app,
  matrix,
  pending,
  error,
  retrying,
  onRetry,
  rows,
  disabled,
  onToggle,
  onToggleAll,
}: MatrixPanelProps) {
  if (pending) {
    return (
      <div role="status" aria-label="Loading permissions">
        <MatrixSkeleton />
      </div>
    );
  }
  if (error || !matrix) {
    return (
      <LoadFailure
        error={error}
        fallback="The permissions could not be loaded. Please try again."
        retrying={retrying}
        onRetry={onRetry}
      />
    );
  }
  if (matrix.sections.length === 0) {
    return (
      <Paper withBorder radius="md" p="xl">
        <EmptyState title="No sections" description="This app has no sections to set permissions for." />
      </Paper>
    );
  }
  const locked = rows.filter((row) => row.locked).length;
  const changed = rows.filter((row) => row.changedFromDefault).length;
  return (
    <Stack gap="sm">
      <Alert variant="light" color="gray" icon={<LockIcon />}>
        {LOCKED_NOTE}
      </Alert>
      <Text size="sm" c="dimmed">
        {plural(rows.length, 'section', 'sections')}, {locked} locked, {changed} changed from the defaults. A role whose
        box is ticked may open the section.
      </Text>
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        <MatrixTable
          app={app}
          roles={matrix.roles}
          rows={rows}
          disabled={disabled}
          onToggle={onToggle}
          onToggleAll={onToggleAll}
        />
      </Paper>
      {locked === rows.length && (
        <Text size="sm" c="red.8">
          Every section is locked: only superadmins can use this app in this project.
        </Text>
      )}
    </Stack>
  );
}

interface LockConfirmModalProps {
  app: PermissionApp;
  opened: boolean;
  rows: MatrixRow[];
  onConfirm: () => void;
  onCancel: () => void;
}

/** Saving rows with no role locks them for everyone but superadmins: say which first. */
function LockConfirmModal({ app, opened, rows, onConfirm, onCancel }: LockConfirmModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={rows.length === 1 ? 'Lock 1 section?' : `Lock ${rows.length} sections?`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text>No role will be allowed in these sections, so only superadmins can open them:</Text>
        <List spacing={4} size="sm" data-testid="locking-rows">
          {rows.map((row) => (
            <List.Item key={row.path}>
              <Text span size="sm">
                {sectionLabel(app, row.path).name}
              </Text>
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            Go back
          </Button>
          <Button color="red.8" onClick={onConfirm}>
            Save and lock
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
