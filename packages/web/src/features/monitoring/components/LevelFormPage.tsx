import { Button, Group, Paper, Radio, Stack, Switch, Text, TextInput } from '@mantine/core';
import { LEVEL_ICONS, type LevelIcon as LevelIconName, pageLevelBodySchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice, PageHeading, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PageLevel, usePageLevels, useSavePageLevel } from '../api/structure-levels';
import { LevelIcon } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const FIELDS = ['name', 'icon', 'may_hold_measures'] as const;
type Field = (typeof FIELDS)[number];

const ICON_LABELS: Record<LevelIconName, string> = {
  folder: 'Folder',
  layers: 'Layers',
  chart: 'Chart',
  target: 'Target',
  heart: 'Heart',
  shield: 'Shield',
  pill: 'Pill',
  clipboard: 'Clipboard',
};

/** /app/monitoring/{projectId}/page-levels/add and .../page-levels/edit/{levelId}. */
export function LevelFormPage(_props: Record<string, never>) {
  const { levelId } = useParams();
  const editing = levelId !== undefined;
  usePageTitle(editing ? 'Edit level' : 'Add level');
  const projectId = useMonitoringProjectId();
  const levels = usePageLevels(projectId);
  const id = editing ? Number(levelId) : null;
  const level = id === null ? null : levels.data?.levels.find((row) => row.id === id);

  return (
    <Stack gap="lg" w="100%" maw={720}>
      <PageHeading title={editing ? 'Edit level' : 'Add level'}>
        {editing
          ? 'Change how the pages of this level are named and shown.'
          : 'A new level goes below the deepest one, so pages can go one level deeper.'}
      </PageHeading>
      <QueryBody
        query={levels}
        fallback="The levels could not be loaded. Please try again."
        loadingLabel="Loading the level"
        rows={3}
      >
        {(data) =>
          editing && !level ? (
            <ErrorNotice message="This level does not exist (any more)." />
          ) : (
            <LevelForm
              key={level?.id ?? 'new'}
              projectId={projectId}
              level={level ?? null}
              nextDepth={(data.levels.at(-1)?.depth ?? 0) + 1}
            />
          )
        }
      </QueryBody>
    </Stack>
  );
}

function LevelForm({ projectId, level, nextDepth }: { projectId: string; level: PageLevel | null; nextDepth: number }) {
  const navigate = useNavigate();
  const save = useSavePageLevel(projectId, level?.id ?? null);
  const [name, setName] = useState(level?.name ?? '');
  const [icon, setIcon] = useState<string>(level?.icon ?? 'folder');
  const [measures, setMeasures] = useState(level?.may_hold_measures ?? false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const back = monitoringRoute(projectId, 'page-levels');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = pageLevelBodySchema.safeParse({ name, icon, may_hold_measures: measures });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(parsed.data);
      toast.success(level ? `Level "${saved.name}" saved.` : `Level "${saved.name}" added.`);
      await navigate(back);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0)
        setFailure(messageFor(error, 'The level could not be saved. Please try again.'));
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={level ? 'Edit level' : 'Add level'}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Depth {level?.depth ?? nextDepth}
            {level ? ` · ${level.page_count} ${level.page_count === 1 ? 'page' : 'pages'}` : ''}
          </Text>
          <TextInput
            label="Name"
            description="What a page of this level is called, such as Domain, Programme or Indicator."
            required
            maxLength={60}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
          />
          <Radio.Group
            label="Icon"
            description="Shown beside the pages of this level in the table of contents."
            value={icon}
            onChange={setIcon}
            error={errors.icon}
          >
            <Group gap="sm" mt="xs" wrap="wrap">
              {LEVEL_ICONS.map((choice) => (
                <Radio.Card
                  key={choice}
                  value={choice}
                  radius="md"
                  p="xs"
                  w={96}
                  aria-label={ICON_LABELS[choice]}
                  data-icon-choice={choice}
                  style={{
                    borderColor: icon === choice ? 'var(--mantine-color-blue-6)' : undefined,
                    borderWidth: icon === choice ? 2 : 1,
                  }}
                >
                  <Stack gap={4} align="center">
                    <LevelIcon icon={choice} size={24} />
                    <Text size="xs">{ICON_LABELS[choice]}</Text>
                  </Stack>
                </Radio.Card>
              ))}
            </Group>
          </Radio.Group>
          <Switch
            label="Pages of this level may hold measures and charts"
            checked={measures}
            onChange={(event) => setMeasures(event.currentTarget.checked)}
            error={errors.may_hold_measures}
          />
          <ErrorNotice message={failure} />
          <Group gap="sm">
            <Button type="submit" loading={save.isPending}>
              {level ? 'Save level' : 'Add level'}
            </Button>
            <Button component={Link} to={back} variant="default">
              Back to the levels
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
