import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { FacilityProfile } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { LoadFailure } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type TemplateDetail,
  type TemplateVersion,
  useCreateTemplate,
  useProfile,
  useTemplate,
  useTemplateVersion,
} from '../api';
import { GALLERY_PATH, TemplateEditor } from './TemplateEditor';
import { FlagsText, StandardsList, TemplatePreview, VariablesTable } from './TemplatePreview';

/** The page of a template, and (with ?mode=edit) its editor. */
export const templatePath = (id: number, edit = false) => `${GALLERY_PATH}/templates/${id}${edit ? '?mode=edit' : ''}`;

const TEMPLATE_ID = /^[1-9]\d{0,9}$/;
const NOT_FOUND = 'This template does not exist, or this project cannot use it.';

const STATUS_LABELS: Record<TemplateVersion['status'], string> = {
  draft: 'Draft',
  published: 'Published',
  retired: 'Retired',
};
const STATUS_COLORS: Record<TemplateVersion['status'], string> = {
  // Dark shades: the light badges' text must reach 4.5:1 contrast.
  draft: 'orange.9',
  published: 'green.9',
  retired: 'gray.8',
};

/**
 * /app/policy_generator/templates/{templateId}: a template as the wizard will use it (DOMAIN.md 4.4): its published
 * version rendered with the facility profile, the questions it asks, the standards it helps satisfy and its
 * versions. Template editors copy a library template, or edit a project template's draft (?mode=edit).
 */
export function TemplatePage({ projectId }: { projectId: number }) {
  const { templateId = '' } = useParams();
  if (!TEMPLATE_ID.test(templateId)) {
    return (
      <PageFrame>
        <Missing />
      </PageFrame>
    );
  }
  return <TemplateScreen key={templateId} projectId={projectId} templateId={Number(templateId)} />;
}

function PageFrame({ children }: { children: ReactNode }) {
  return (
    <Stack gap="lg" w="100%" maw={1400} miw={0}>
      <Anchor component={Link} to={GALLERY_PATH} size="sm" w="fit-content">
        ← All templates
      </Anchor>
      {children}
    </Stack>
  );
}

function Missing() {
  return (
    <Stack gap="md">
      <Title order={2}>Policy template</Title>
      <Alert color="yellow" variant="light" role="alert">
        {NOT_FOUND}
      </Alert>
    </Stack>
  );
}

function TemplateScreen({ projectId, templateId }: { projectId: number; templateId: number }) {
  const template = useTemplate(projectId, templateId);
  const profile = useProfile(projectId);
  const [search, setSearch] = useSearchParams();
  const data = template.data;
  const editable = Boolean(data && data.scope === 'project' && data.can_edit);
  const editing = editable && search.get('mode') === 'edit';
  usePageTitle(data ? (editing ? `Edit ${data.title}` : data.title) : 'Policy template');

  // The preview waits for the profile; when it cannot be read, the profile's names stay placeholders.
  const profileData: FacilityProfile | null | undefined = profile.data ?? (profile.isError ? null : undefined);

  const setEditing = (on: boolean) =>
    setSearch((previous) => {
      const next = new URLSearchParams(previous);
      if (on) next.set('mode', 'edit');
      else next.delete('mode');
      return next;
    });

  let body: ReactNode;
  if (data) {
    body = editing ? (
      <TemplateEditor
        key={data.id}
        projectId={projectId}
        template={data}
        profile={profileData}
        onClose={() => setEditing(false)}
      />
    ) : (
      <TemplateOverview projectId={projectId} template={data} profile={profileData} onEdit={() => setEditing(true)} />
    );
  } else if (template.isError) {
    body =
      template.error instanceof ApiError && template.error.status === 404 ? (
        <Missing />
      ) : (
        <Stack gap="md">
          <Title order={2}>Policy template</Title>
          <LoadFailure
            error={template.error}
            fallback="The template could not be loaded. Please try again."
            retrying={template.isFetching}
            onRetry={() => void template.refetch()}
          />
        </Stack>
      );
  } else {
    body = (
      <Stack gap="md" role="status" aria-label="Loading the template">
        <Skeleton height={40} width="60%" radius="md" />
        <Skeleton height={360} radius="md" />
      </Stack>
    );
  }

  return <PageFrame>{body}</PageFrame>;
}

interface OverviewProps {
  projectId: number;
  template: TemplateDetail;
  profile: FacilityProfile | null | undefined;
  onEdit: () => void;
}

function TemplateOverview({ projectId, template, profile, onEdit }: OverviewProps) {
  const navigate = useNavigate();
  const copy = useCreateTemplate(projectId);
  // The version shown: the published one unless another was picked in the history.
  const initial = template.current ?? template.working;
  const [picked, setPicked] = useState<number | null>(null);
  const shownId = picked ?? initial?.id ?? null;
  const inDetail = [template.current, template.working].find((v) => v && v.id === shownId) ?? null;
  const fetched = useTemplateVersion(projectId, template.id, inDetail || shownId === null ? null : shownId);
  const shown: TemplateVersion | null = inDetail ?? fetched.data ?? null;
  const published = template.published?.version ?? template.current?.version ?? null;
  const hasDraft = template.draft !== null || template.working !== null;

  function copyToEdit() {
    copy.mutate({ copy_of: template.id }, { onSuccess: (created) => void navigate(templatePath(created.id, true)) });
  }

  const body = shown?.body;
  return (
    <Stack gap="lg" miw={0}>
      <Stack gap="xs" miw={0}>
        <Title order={2} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
          {template.title}
        </Title>
        <Group gap="xs" wrap="wrap" data-testid="pg-badges">
          <Badge variant="light" color={template.scope === 'global' ? 'blue.9' : 'grape.9'}>
            {template.scope === 'global' ? 'Library' : 'This project'}
          </Badge>
          {template.derived_from && (
            <Badge variant="outline" color="gray" tt="none">
              Copied from {template.derived_from.title}
            </Badge>
          )}
          {published !== null && (
            <Badge variant="light" color="green.9" tt="none">
              v{published}
            </Badge>
          )}
          {hasDraft && (
            <Badge variant="light" color="orange.9">
              Draft
            </Badge>
          )}
        </Group>
        {template.category && (
          <Text size="sm" c="dimmed">
            {template.category}
          </Text>
        )}
        {template.description && <Text style={{ overflowWrap: 'anywhere' }}>{template.description}</Text>}
        <FlagsText flags={template.requires_flags} />
      </Stack>

      <Group gap="sm" wrap="wrap">
        {template.current && (
          <Button component={Link} to={`${templatePath(template.id)}/generate`}>
            Use template
          </Button>
        )}
        {template.scope === 'global' && template.can_edit && (
          <Button variant="default" onClick={copyToEdit} loading={copy.isPending}>
            Copy to edit
          </Button>
        )}
        {template.scope === 'project' && template.can_edit && (
          <Button variant="default" onClick={onEdit}>
            {hasDraft ? 'Open draft' : 'Edit draft'}
          </Button>
        )}
      </Group>
      {template.scope === 'global' && template.can_edit && (
        <Text size="sm" c="dimmed">
          Library templates cannot be changed here: copy one to this project to adapt it.
        </Text>
      )}
      {copy.isError && (
        <Alert color="red" variant="light" role="alert">
          {messageFor(copy.error, 'The template could not be copied. Please try again.')}
        </Alert>
      )}
      {!template.current && (
        <Alert color="yellow" variant="light">
          This template has no published version yet: it cannot be used to generate a policy until it is published.
        </Alert>
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }} miw={0}>
          <Stack gap="lg">
            <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
              <Stack gap="sm">
                <Group justify="space-between" gap="sm" wrap="wrap">
                  <Title order={3} fz="h4">
                    {shown ? `Preview of version ${shown.version}` : 'Preview'}
                    {shown && shown.status !== 'published' ? ` (${STATUS_LABELS[shown.status].toLowerCase()})` : ''}
                  </Title>
                  {picked !== null && picked !== initial?.id && initial && (
                    <Button variant="subtle" size="compact-sm" onClick={() => setPicked(null)}>
                      Show version {initial.version}
                    </Button>
                  )}
                </Group>
                {body ? (
                  <TemplatePreview
                    sections={body.sections}
                    variables={body.variables}
                    profile={profile}
                    label={`Preview of version ${shown.version}`}
                  />
                ) : fetched.isError ? (
                  <LoadFailure
                    error={fetched.error}
                    fallback="This version could not be loaded. Please try again."
                    retrying={fetched.isFetching}
                    onRetry={() => void fetched.refetch()}
                  />
                ) : shownId !== null ? (
                  <Stack gap="sm" role="status" aria-label="Loading the version">
                    <Skeleton height={20} width="40%" />
                    <Skeleton height={120} />
                  </Stack>
                ) : (
                  <Text c="dimmed">Nothing to preview yet.</Text>
                )}
              </Stack>
            </Paper>
            <Stack gap="sm" component="section" aria-labelledby="pg-variables-title">
              <Title order={3} fz="h4" id="pg-variables-title">
                Questions the wizard asks
              </Title>
              {body ? <VariablesTable variables={body.variables} /> : <Text c="dimmed">—</Text>}
            </Stack>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} miw={0}>
          <Stack gap="lg">
            <Stack gap="sm" component="section" aria-labelledby="pg-standards-title">
              <Title order={3} fz="h4" id="pg-standards-title">
                Standards it helps satisfy
              </Title>
              <StandardsList standards={body?.standards ?? template.standards} known={template.current_standards} />
            </Stack>
            <Stack gap="sm" component="section" aria-labelledby="pg-versions-title">
              <Title order={3} fz="h4" id="pg-versions-title">
                Versions
              </Title>
              <VersionList template={template} shownId={shownId} onPick={setPicked} />
            </Stack>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function VersionList({
  template,
  shownId,
  onPick,
}: {
  template: TemplateDetail;
  shownId: number | null;
  onPick: (id: number) => void;
}) {
  if (template.versions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No versions yet.
      </Text>
    );
  }
  const versions = [...template.versions].sort((a, b) => b.version - a.version);
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="pg-versions">
      {versions.map((version) => {
        const selected = version.id === shownId;
        return (
          <li key={version.id}>
            <UnstyledButton
              onClick={() => onPick(version.id)}
              aria-pressed={selected}
              w="100%"
              p="sm"
              style={{
                borderRadius: 'var(--mantine-radius-md)',
                border: `1px solid ${selected ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-3)'}`,
                background: selected ? 'var(--mantine-color-blue-0)' : undefined,
              }}
            >
              <Stack gap={2}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={700} size="sm">
                    Version {version.version}
                  </Text>{' '}
                  <Badge size="sm" variant="light" color={STATUS_COLORS[version.status]}>
                    {STATUS_LABELS[version.status]}
                  </Badge>
                </Group>
                {version.published && (
                  <Text size="xs" c="dimmed">
                    Published {formatDate(version.published.at)}
                    {version.published.by ? ` by ${version.published.by}` : ''}
                  </Text>
                )}
                {version.note && (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {version.note}
                  </Text>
                )}
              </Stack>
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}
