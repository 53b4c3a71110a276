import { Alert, Button, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { contactMessageCreateSchema, isProjectId } from '@portal/shared';
import { type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSendContactMessage } from '../api/send-contact-message';
import { CharacterCounter } from './CharacterCounter';

export const CONTACT_SENT = 'Your message was sent to the project administrators.';
export const NO_PROJECT = 'No project context.';

const SUBJECT_MAX = contactMessageCreateSchema.shape.subject.maxLength ?? 200;
const MESSAGE_MAX = contactMessageCreateSchema.shape.message.maxLength ?? 5000;

type Field = 'subject' | 'message';
const FIELDS = ['subject', 'message'] as const;

/** /member/projects/{projectId}/contact-us: a message to the project's administrators. */
export function ContactUsPage() {
  usePageTitle('Contact Us');
  const { projectId = '' } = useParams();
  return (
    <Stack gap="lg" maw={720} w="100%">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Contact Us
      </Title>
      {isProjectId(projectId) ? (
        <ContactForm key={projectId} projectId={projectId} />
      ) : (
        <Alert color="red" variant="light" role="alert">
          {NO_PROJECT}
        </Alert>
      )}
    </Stack>
  );
}

function ContactForm({ projectId }: { projectId: string }) {
  const send = useSendContactMessage(projectId);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const subjectInput = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    setFailure(null);
    const parsed = contactMessageCreateSchema.safeParse({ subject, message });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      await send.mutateAsync(parsed.data);
      setSent(true);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'Your message could not be sent. Please try again.'));
      }
    }
  }

  function writeAnother() {
    setSubject('');
    setMessage('');
    setSent(false);
    // The form replaces the success panel: put the keyboard back where writing starts.
    requestAnimationFrame(() => subjectInput.current?.focus());
  }

  if (sent) {
    return (
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md" align="flex-start">
          <Alert color="green" variant="light" role="status" w="100%">
            {CONTACT_SENT}
          </Alert>
          <Button variant="default" onClick={writeAnother}>
            Write another
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate aria-label="Contact the project administrators">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Your message goes to this project's administrators. They answer by email.
          </Text>
          <ErrorNotice message={failure} />
          <TextInput
            ref={subjectInput}
            label="Subject"
            name="subject"
            required
            value={subject}
            onChange={(event) => setSubject(event.currentTarget.value)}
            error={errors.subject}
            description={<CharacterCounter value={subject} max={SUBJECT_MAX} />}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
          <Textarea
            label="Message"
            name="message"
            required
            rows={8}
            resize="vertical"
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            error={errors.message}
            description={<CharacterCounter value={message} max={MESSAGE_MAX} />}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
          <Button type="submit" loading={send.isPending} w="fit-content">
            Send
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
