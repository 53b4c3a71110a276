import { Button, Fieldset, FileInput, Group, Stack, Text, TextInput } from '@mantine/core';
import { STD_LIMITS, stdEcfrImportSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { fileText } from '../../../lib/file-text';
import { useLoadEcfrEdition } from '../api/frameworks';
import { plural } from './std-words';

type Field = 'xml' | 'as_of' | 'file';

const ECFR_DOWNLOAD = 'https://www.ecfr.gov/api/versioner/v1/full/{date}/title-42.xml?part=482';

/**
 * A superadmin loads an edition of 42 CFR 482 from the official eCFR XML (docs/standards.md "Editions from the
 * eCFR"): every project sees it, with a crosswalk from the edition before it for upgrading assessments.
 */
export function EcfrEditionImport({ projectId, onLoaded }: { projectId: string; onLoaded: (id: number) => void }) {
  const load = useLoadEcfrEdition(projectId);
  const [file, setFile] = useState<File | null>(null);
  const [asOf, setAsOf] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (file && file.size > STD_LIMITS.ecfrXmlBytes) {
      setErrors({ xml: 'The file is larger than 10 MB: download one part, not the whole title.' });
      return;
    }
    let xml = '';
    try {
      xml = file ? await fileText(file) : '';
    } catch {
      setErrors({ xml: 'The file could not be read. Choose it again.' });
      return;
    }
    const parsed = stdEcfrImportSchema.safeParse({ xml, as_of: asOf.trim() || undefined });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const answer = await load.mutateAsync(parsed.data);
      setFile(null);
      setAsOf('');
      toast.success(
        `Loaded ${answer.code} ${answer.edition}: ${plural(answer.sections, 'section')}, ${plural(answer.paragraphs, 'paragraph')}${
          answer.previous_edition
            ? `, with a crosswalk of ${plural(answer.mappings, 'mapping')} from edition ${answer.previous_edition}`
            : ''
        }.`,
      );
      onLoaded(answer.framework_id);
    } catch (error) {
      const found = serverFieldErrors(error, ['xml', 'as_of', 'file'] as const);
      setErrors({ ...found, xml: found.xml ?? found.file });
      const message =
        Object.keys(found).length > 0
          ? 'The edition was not loaded. See the messages at the fields.'
          : messageFor(error, 'The edition could not be loaded. Please try again.');
      setFailure(message);
      toast.error(message);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Load an edition from the eCFR">
      <Fieldset legend="Load an edition from the eCFR (XML)" radius="md" styles={{ legend: { fontWeight: 700 } }}>
        <Stack gap="sm">
          <Text size="sm">
            The official text of 42 CFR Part 482 as the eCFR prints it on a day, read mechanically: identifiers,
            headings, text, source notes, and paragraphs with a later effective date marked in force from it. Every
            project of this installation sees the new edition; assessments move to it with “Upgrade to another edition”,
            through a crosswalk derived from the edition before.
          </Text>
          <Text size="sm" c="dimmed">
            Download the part from the eCFR: {ECFR_DOWNLOAD}, with the day in place of {'{date}'}.
          </Text>
          <FileInput
            label="eCFR XML file"
            description="One part, at most 10 MB."
            placeholder="Choose an XML file"
            accept=".xml,application/xml,text/xml"
            required
            clearable
            value={file}
            onChange={(next) => {
              setFile(next);
              setErrors((current) => ({ ...current, xml: undefined }));
            }}
            error={errors.xml}
          />
          <TextInput
            label="Date of the text"
            description="YYYY-MM-DD, the day you downloaded it for. Leave empty when the file says it."
            placeholder="2026-12-01"
            value={asOf}
            onChange={(event) => {
              setAsOf(event.currentTarget.value);
              setErrors((current) => ({ ...current, as_of: undefined }));
            }}
            error={errors.as_of}
            maw={260}
          />
          <ErrorNotice message={failure} />
          <Group>
            <Button type="submit" variant="light" loading={load.isPending}>
              Load edition
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
