import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { STD_LIMITS, stdUpgradeSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import type { StdAssessment } from '../api/assessments';
import { linked, type StdUpgrade, useStdCrosswalks, useUpgradeAssessment } from '../api/crosswalks';
import { useStdFrameworks } from '../api/frameworks';
import { useStdMe } from '../api/me';
import { standardsRoute } from './std-parts';

type Field = keyof StdUpgrade;
const FIELDS: Field[] = ['framework_id', 'name'];

export const CARRY_RULE =
  'Mapped elements carry their result, owner and due date and go to In review for someone to confirm; new elements start Not assessed.';

/**
 * "Upgrade to another edition" on the compliance page (standards admins): a new assessment of another framework or
 * edition whose elements take the current one's results through a crosswalk (POST /assessments/{id}/upgrade). The
 * current assessment stays as it is.
 */
export function UpgradeAssessment({ projectId, current }: { projectId: string; current: StdAssessment }) {
  const me = useStdMe(projectId);
  const [opened, setOpened] = useState(false);
  if (me.data?.abilities.create !== true) return null;
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Upgrade to another edition
      </Button>
      {opened && <UpgradeModal projectId={projectId} current={current} onClose={() => setOpened(false)} />}
    </>
  );
}

function UpgradeModal({
  projectId,
  current,
  onClose,
}: {
  projectId: string;
  current: StdAssessment;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const frameworks = useStdFrameworks(projectId);
  const crosswalks = useStdCrosswalks(projectId);
  const upgrade = useUpgradeAssessment(projectId, current.id);
  const [frameworkId, setFrameworkId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const others = (frameworks.data?.frameworks ?? []).filter((framework) => framework.id !== current.framework.id);
  const chosen = others.find((framework) => String(framework.id) === frameworkId);
  const unlinked =
    chosen !== undefined &&
    crosswalks.data !== undefined &&
    !linked(crosswalks.data.sets, current.framework.id, chosen.id);

  const choose = (value: string | null) => {
    setFrameworkId(value);
    setErrors((previous) => ({ ...previous, framework_id: undefined }));
    setFailure(null);
    const framework = others.find((item) => String(item.id) === value);
    if (framework && !nameTouched) setName(`${current.name} (${framework.edition})`.slice(0, STD_LIMITS.name));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = stdUpgradeSchema.safeParse({ framework_id: frameworkId ? Number(frameworkId) : 0, name });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const { id } = await upgrade.mutateAsync(parsed.data);
      toast.success(`Created ${parsed.data.name}: mapped elements are in review.`);
      onClose();
      navigate(standardsRoute(projectId, `compilence?assessment=${id}`));
    } catch (error) {
      // The server's message shows at its field (no crosswalk, same edition) or, without one, above the buttons.
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      const message = messageFor(error, 'The assessment could not be upgraded. Please try again.');
      setFailure(Object.keys(fields).length > 0 ? null : message);
      toast.error(message);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title="Upgrade to another edition"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Upgrade the assessment">
        <Stack gap="sm">
          <Text size="sm">
            A new assessment of the edition you choose is made from {current.name} ({current.framework.code}{' '}
            {current.framework.edition}) through the crosswalk between the two. {CARRY_RULE} {current.name} stays as it
            is, with its history.
          </Text>
          <Select
            label="Upgrade to"
            placeholder={frameworks.isPending ? 'Loading the frameworks' : 'Choose a framework or edition'}
            required
            data={others.map((framework) => ({
              value: String(framework.id),
              label: `${framework.name}, edition ${framework.edition} (${framework.code})`,
            }))}
            value={frameworkId}
            onChange={choose}
            error={errors.framework_id}
            nothingFoundMessage="No other framework yet"
            comboboxProps={{ withinPortal: true }}
          />
          {unlinked && (
            <Text size="sm" c="orange.9" role="note">
              No crosswalk links these editions yet. A standards admin imports one on the Create page.
            </Text>
          )}
          <TextInput
            label="Name of the new assessment"
            required
            maxLength={STD_LIMITS.name}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameTouched(true);
              setErrors((previous) => ({ ...previous, name: undefined }));
            }}
            error={errors.name}
          />
          <ErrorNotice message={failure} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={upgrade.isPending}>
              Upgrade
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
