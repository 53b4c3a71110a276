import { Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import type { DocumentDetail } from '../api/get-document';
import { qrSheetUrl, stableLinkUrl } from '../api/policy-links';

/** Why a policy has no stable link yet, or null when it has one. */
export function noLinkReason(document: DocumentDetail): string | null {
  if (!document.number) return 'Give this policy a number to get a link that always opens its current version';
  if (document.status === 'archived') return 'An archived policy has no current version to link to';
  if (!document.current_version) return 'Publish this policy to get a link that always opens its current version';
  return null;
}

/**
 * "Copy link" and "QR code" of a policy: its stable address /p/{projectId}/{number}, which always opens the current
 * published version (for the EHR, the intranet, emails and posters on the unit's wall). Where the browser refuses
 * the clipboard, the address is shown to copy by hand.
 */
export function PolicyLinkActions({ projectId, document }: { projectId: string; document: DocumentDetail }) {
  const [manualCopy, setManualCopy] = useState<string | null>(null);
  const reason = noLinkReason(document);

  if (reason) {
    // Disabled but focusable, so keyboard users reach the tooltip that says why (Mantine's data-disabled pattern).
    const disabled = (label: string) => (
      <Tooltip label={reason} multiline maw={280} events={{ hover: true, focus: true, touch: true }}>
        <Button variant="default" data-disabled aria-disabled="true" onClick={(event) => event.preventDefault()}>
          {label}
        </Button>
      </Tooltip>
    );
    return (
      <Group gap="xs">
        {disabled('Copy link')}
        {disabled('QR code')}
      </Group>
    );
  }

  const url = stableLinkUrl(projectId, document.number!);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied');
    } catch {
      setManualCopy(url);
    }
  }

  return (
    <Group gap="xs">
      <Button variant="default" onClick={() => void copy()}>
        Copy link
      </Button>
      <Button
        variant="default"
        component="a"
        href={qrSheetUrl(projectId, { documentId: document.id })}
        target="_blank"
        rel="noopener"
      >
        QR code
      </Button>
      <Modal opened={manualCopy !== null} onClose={() => setManualCopy(null)} title="Copy the link">
        <Stack gap="sm">
          <Text size="sm">Your browser did not allow copying. Select the address and copy it yourself:</Text>
          <TextInput
            label="Link to the current version"
            value={manualCopy ?? ''}
            readOnly
            data-autofocus
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button onClick={() => setManualCopy(null)} w="fit-content">
            Done
          </Button>
        </Stack>
      </Modal>
    </Group>
  );
}

/**
 * "QR codes" of a department: a printable sheet of its published, numbered policies' stable links (opens the PDF
 * in a new tab). Nothing to print in a department without policies.
 */
export function DepartmentQrButton({
  projectId,
  department,
}: {
  projectId: string;
  department: { id: number; name: string; document_count: number };
}) {
  const label = `Print QR codes of ${department.name}`;
  if (department.document_count === 0) {
    return (
      <Tooltip label="No policies in this department yet" events={{ hover: true, focus: true, touch: true }}>
        <Button
          variant="default"
          size="compact-sm"
          aria-label={label}
          data-disabled
          aria-disabled="true"
          onClick={(event) => event.preventDefault()}
        >
          QR codes
        </Button>
      </Tooltip>
    );
  }
  return (
    <Button
      variant="default"
      size="compact-sm"
      component="a"
      href={qrSheetUrl(projectId, { departmentId: department.id })}
      target="_blank"
      rel="noopener"
      aria-label={label}
    >
      QR codes
    </Button>
  );
}
