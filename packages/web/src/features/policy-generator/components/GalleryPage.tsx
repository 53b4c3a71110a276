import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ACCREDITOR_LABELS, ACCREDITORS, type Accreditor, PG_LIMITS } from '@portal/shared';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type TemplateSummary, useCreateTemplate, useLookups, useProfile, useTemplates } from '../api';
import { EmptyState, FactBadge, PG_BASE, pgRoute, plural, profileLabel } from './pg-parts';

export interface GalleryFilters {
  search: string;
  category: string | null;
  standard: string;
  accreditor: Accreditor | null;
  fitsOnly: boolean;
}

export const NO_FILTERS: GalleryFilters = {
  search: '',
  category: null,
  standard: '',
  accreditor: null,
  fitsOnly: false,
};

/** '§ 482.42(a)' and '482.42(A)' compare equal. */
const refKey = (value: string) => value.toLowerCase().replace(/[§\s]/g, '');

/** Frameworks an accreditor surveys against, as the start of a standard's framework code. */
const ACCREDITOR_FRAMEWORKS: Record<Accreditor, string[]> = {
  tjc: ['tjc'],
  dnv: ['dnv'],
  achc: ['achc', 'hfap'],
  cihq: ['cihq'],
  state: ['cms'],
};

/** The templates the filters keep (the same rules the gallery shows). */
export function filterTemplates(templates: readonly TemplateSummary[], filters: GalleryFilters): TemplateSummary[] {
  const words = filters.search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const standard = refKey(filters.standard);
  return templates.filter((template) => {
    if (filters.fitsOnly && !template.fits_profile) return false;
    if (filters.category !== null && template.category !== filters.category) return false;
    if (words.length > 0) {
      const haystack = `${template.title} ${template.description}`.toLowerCase();
      if (!words.every((word) => haystack.includes(word))) return false;
    }
    if (standard && !template.standards.some((ref) => refKey(ref.ref_id).includes(standard))) return false;
    if (filters.accreditor !== null) {
      const flag = `accreditor_${filters.accreditor}`;
      const frameworks = ACCREDITOR_FRAMEWORKS[filters.accreditor];
      const cites = template.standards.some((ref) =>
        frameworks.some((code) => ref.framework.toLowerCase().startsWith(code)),
      );
      if (!template.requires_flags.includes(flag) && !cites) return false;
    }
    return true;
  });
}

/** /app/policy_generator: the templates of the library and of the project, with filters. */
export function GalleryPage({ projectId }: { projectId: number }) {
  usePageTitle('Templates | Policy Generator');
  const templates = useTemplates(projectId);
  const lookups = useLookups(projectId);
  const [filters, setFilters] = useState<GalleryFilters>(NO_FILTERS);
  const [creating, setCreating] = useState(false);
  const canEdit = templates.data?.can_edit === true;
  const canGenerate = lookups.data?.can_generate !== false;

  const all = templates.data?.templates ?? [];
  const categories = useMemo(
    () => [...new Set(all.map((t) => t.category).filter(Boolean))].sort((a, b) => a.localeCompare(b)),
    [all],
  );
  const shown = useMemo(() => filterTemplates(all, filters), [all, filters]);
  const set = (patch: Partial<GalleryFilters>) => setFilters((current) => ({ ...current, ...patch }));
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);

  let list: ReactNode;
  if (all.length === 0)
    list = (
      <EmptyState title="No templates yet">
        {canEdit
          ? 'Start a template of your own with New template.'
          : 'The template library is empty. A policy administrator can add templates for this project.'}
      </EmptyState>
    );
  else if (shown.length === 0)
    list = (
      <EmptyState
        title="No templates match these filters"
        action={
          <Button variant="default" onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </Button>
        }
      >
        Try other words, another department or standard, or show templates that do not fit the profile too.
      </EmptyState>
    );
  else
    list = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="template-list">
        {shown.map((template) => (
          <TemplateCard key={template.id} template={template} canEdit={canEdit} canGenerate={canGenerate} />
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="md" miw={0}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={2} fz="h3">
            Templates
          </Title>
          <Text c="dimmed" size="sm">
            Pick a template, answer its questions and get a draft policy in Policy management, ready for review.
          </Text>
        </Stack>
        {canEdit && <Button onClick={() => setCreating(true)}>New template</Button>}
      </Group>
      <ProfileBanner projectId={projectId} />
      <Paper withBorder radius="md" p="md" component="section" aria-label="Filters">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          <TextInput
            label="Search"
            placeholder="Title or description"
            value={filters.search}
            onChange={(event) => set({ search: event.currentTarget.value })}
            type="search"
          />
          <Select
            label="Department"
            placeholder="All departments"
            data={categories}
            value={filters.category}
            onChange={(value) => set({ category: value })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label="Standard"
            placeholder="e.g. 482.42"
            value={filters.standard}
            onChange={(event) => set({ standard: event.currentTarget.value })}
          />
          <Select
            label="Accreditor"
            placeholder="Any accreditor"
            data={ACCREDITORS.map((code) => ({ value: code, label: ACCREDITOR_LABELS[code] }))}
            value={filters.accreditor}
            onChange={(value) => set({ accreditor: (value as Accreditor | null) ?? null })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm" gap="sm">
          <Switch
            label="Fits my profile only"
            checked={filters.fitsOnly}
            onChange={(event) => set({ fitsOnly: event.currentTarget.checked })}
          />
          {templates.data && (
            <Text size="sm" c="dimmed" aria-live="polite">
              {filtered ? `${plural(shown.length, 'template')} of ${all.length}` : plural(all.length, 'template')}
            </Text>
          )}
        </Group>
      </Paper>
      <QueryBody
        query={templates}
        fallback="The templates could not be loaded. Please try again."
        loadingLabel="Loading the templates"
        rows={6}
      >
        {() => list}
      </QueryBody>
      <NewTemplateModal projectId={projectId} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function TemplateCard({
  template,
  canEdit,
  canGenerate,
}: {
  template: TemplateSummary;
  canEdit: boolean;
  canGenerate: boolean;
}) {
  const titleId = useId();
  const standards = template.standards.length;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      className="pg-card"
      component="article"
      aria-labelledby={titleId}
      data-template-id={template.id}
    >
      <Stack gap="xs" className="pg-card-body">
        <Title order={3} fz="h5" id={titleId} style={{ overflowWrap: 'anywhere' }}>
          {template.title}
        </Title>
        {template.category && (
          <Text size="sm" c="dimmed">
            {template.category}
          </Text>
        )}
        <Group gap={6} wrap="wrap">
          <FactBadge tone="plain">{template.scope === 'global' ? 'Library' : 'This project'}</FactBadge>
          {template.fits_profile && <FactBadge tone="good">Fits your profile</FactBadge>}
          {template.published && <FactBadge tone="info">v{template.published.version}</FactBadge>}
          {standards > 0 && <FactBadge tone="plain">{plural(standards, 'standard')}</FactBadge>}
          {canEdit && template.draft && <FactBadge tone="warn">Draft</FactBadge>}
        </Group>
        {template.description && (
          <Text size="sm" lineClamp={4}>
            {template.description}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Updated {formatDate(template.updated_at)}
        </Text>
        {!template.published && (
          <Text size="xs" c="dimmed">
            Not published yet: it cannot be used until an editor publishes it.
          </Text>
        )}
      </Stack>
      <Group gap="xs" mt="md">
        {canGenerate && template.published ? (
          <Button
            component={Link}
            to={pgRoute(`templates/${template.id}/generate`)}
            size="xs"
            aria-describedby={titleId}
          >
            Use template
          </Button>
        ) : null}
        <Button
          component={Link}
          to={pgRoute(`templates/${template.id}`)}
          size="xs"
          variant="default"
          aria-describedby={titleId}
        >
          Open
        </Button>
      </Group>
    </Paper>
  );
}

/** The banner asking for the facility profile while it is not saved or misses fields templates use. */
function ProfileBanner({ projectId }: { projectId: number }) {
  const profile = useProfile(projectId);
  if (!profile.data) return null;
  const { saved, missing, can_edit } = profile.data;
  if (saved && missing.length === 0) return null;
  const link = (
    <Anchor component={Link} to={pgRoute('profile')} underline="always" size="sm">
      {can_edit ? 'Complete the facility profile' : 'See the facility profile'}
    </Anchor>
  );
  return (
    <Alert
      color="yellow"
      variant="light"
      title={saved ? 'The facility profile is incomplete' : 'Set up the facility profile'}
    >
      <Stack gap={4} align="flex-start">
        <Text size="sm">
          {saved
            ? `Templates use fields of the profile that are still empty: ${missing.map(profileLabel).join(', ')}. They stay highlighted in the drafts until they are filled in.`
            : 'Templates fill in the facility’s name, services and owner titles from its profile. Until a project administrator saves it, the values are suggestions from the project.'}
        </Text>
        {link}
      </Stack>
    </Alert>
  );
}

/** POST /templates {title}: a blank template of the project, then its page. */
function NewTemplateModal({ projectId, opened, onClose }: { projectId: number; opened: boolean; onClose: () => void }) {
  const create = useCreateTemplate(projectId);
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    setTitle('');
    setError(null);
    setFailure(null);
    create.reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const value = title.trim();
    if (!value) {
      setError('Enter a title.');
      return;
    }
    setError(null);
    setFailure(null);
    try {
      const template = await create.mutateAsync({ title: value });
      close();
      navigate(`${PG_BASE}/templates/${template.id}`);
    } catch (caught) {
      const fields = serverFieldErrors(caught, ['title'] as const);
      if (fields.title) setError(fields.title);
      else setFailure(messageFor(caught, 'The template could not be created. Please try again.'));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="New template" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <ErrorNotice message={failure} />
          <TextInput
            label="Title"
            withAsterisk
            data-autofocus
            maxLength={PG_LIMITS.title}
            description="You write its sections, questions and standards on the next page."
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={error}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create template
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
