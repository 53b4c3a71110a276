import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { type ContactMessage, contactReplySchema } from '@portal/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { useReplyToContactMessage } from '../api/reply-contact-message';
import { CharacterCounter } from './CharacterCounter';

export const REPLY_SENT = 'Reply sent.';
const REPLY_MAX = contactReplySchema.shape.message.maxLength ?? 5000;

interface ReplyModalProps {
  projectId: string;
  /** The message answered; null keeps the modal closed. */
  message: ContactMessage | null;
  onClose: () => void;
}

/** Writes a reply that the server emails to the sender. */
export function ReplyModal({ projectId, message, onClose }: ReplyModalProps) {
  const reply = useReplyToContactMessage(projectId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Kept while the modal fades out after closing, so its content does not vanish first.
  const [shown, setShown] = useState<ContactMessage | null>(message);
  if (message && message !== shown) setShown(message);
  const id = message?.id;

  // A new message starts a new reply.
  useEffect(() => {
    if (id === undefined) return;
    setText('');
    setError(null);
    setFailure(null);
  }, [id]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!message || reply.isPending) return;
    setFailure(null);
    const parsed = contactReplySchema.safeParse({ message: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter your reply.');
      return;
    }
    setError(null);
    try {
      await reply.mutateAsync({ id: message.id, message: parsed.data.message });
      toast.success(REPLY_SENT);
      onClose();
    } catch (failed) {
      const fields = serverFieldErrors(failed, ['message'] as const);
      if (fields.message) setError(fields.message);
      else setFailure(messageFor(failed, 'Your reply could not be sent. Please try again.'));
    }
  }

  return (
    <Modal
      opened={message !== null}
      onClose={onClose}
      title="Reply by email"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {shown && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              To {shown.sender.name} &lt;{shown.sender.email}&gt;, about "{shown.subject}"
            </Text>
            <ErrorNotice message={failure} />
            <Textarea
              label="Reply"
              name="message"
              required
              rows={8}
              resize="vertical"
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              error={error}
              description={<CharacterCounter value={text} max={REPLY_MAX} />}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={reply.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={reply.isPending}>
                Send reply
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
