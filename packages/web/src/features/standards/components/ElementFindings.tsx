import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { SAFER_LIKELIHOOD_LABELS, SAFER_SCOPE_LABELS, STD_FINDING_STATUS_LABELS } from '@portal/shared';
import { useState } from 'react';
import { formatDay } from '../../../lib/dates';
import type { StdElement } from '../api/elements';
import { FindingDetailModal, FindingFormModal } from './FindingModals';
import { OverdueBadge } from './std-parts';

/**
 * The element's findings in its panel: each with its SAFER cell, status and due date (opening the finding's own
 * window with its plan), and "Record a finding" for whoever may (the element's editors and mock assessors).
 */
export function ElementFindings({ projectId, element }: { projectId: string; element: StdElement }) {
  const [recording, setRecording] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Stack gap="xs" component="section" aria-label="Findings">
      <Group justify="space-between">
        <Title order={3} fz="h4">
          Findings
        </Title>
        {element.abilities.finding && (
          <Button size="xs" variant="light" onClick={() => setRecording(true)}>
            Record a finding
          </Button>
        )}
      </Group>
      {element.findings.length === 0 ? (
        <Text size="sm" c="dimmed">
          No findings on this element.
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {element.findings.map((finding) => (
            <li key={finding.id}>
              <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setOpen(finding.id)}>
                {finding.text.length > 120 ? `${finding.text.slice(0, 120)}…` : finding.text}
              </Anchor>
              <Group gap={4} mt={2}>
                <Badge variant="light" color={finding.status === 'closed' ? 'green.9' : 'orange.9'} tt="none">
                  {STD_FINDING_STATUS_LABELS[finding.status]}
                </Badge>
                <Badge variant="light" color={finding.high_risk ? 'red.9' : 'gray.8'} tt="none">
                  {SAFER_LIKELIHOOD_LABELS[finding.likelihood]} · {SAFER_SCOPE_LABELS[finding.scope]}
                </Badge>
                {finding.immediate_threat && (
                  <Badge color="red.9" variant="filled" tt="none">
                    Immediate threat
                  </Badge>
                )}
                <Text size="xs" c="dimmed">
                  due {formatDay(finding.due_date)}
                </Text>
                {finding.overdue && <OverdueBadge />}
              </Group>
            </li>
          ))}
        </Stack>
      )}
      <FindingFormModal
        projectId={projectId}
        opened={recording}
        onClose={() => setRecording(false)}
        reqId={element.id}
        elementLabel={`${element.node.ref_id} ${element.node.title}`}
      />
      <FindingDetailModal projectId={projectId} findingId={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
