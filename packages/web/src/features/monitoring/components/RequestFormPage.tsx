import { Stack, Tabs } from '@mantine/core';
import { permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-parts';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { usePageTitle } from '../../../lib/use-page-title';
import { RequestDrawer } from './RequestDrawer';
import { RequestForm } from './RequestForm';
import { RequestTable } from './RequestTable';
import { useMonitoringProjectId } from './use-monitoring-project';

type Tab = 'new' | 'mine' | 'queue';

/**
 * request-form ("Request Data"): the form to ask the data stewards for data, the user's own requests and, for the
 * data stewards (section request-queue), the queue of every request. ?request=ID (links from notifications) opens
 * that request's drawer.
 */
export function RequestFormPage(_props: Record<string, never>) {
  usePageTitle('Request Data');
  const projectId = useMonitoringProjectId();
  const permissions = useQuery(myPermissionsQueryOptions('monitoring', projectId));
  const steward = permissions.data?.[permissionKey('monitoring', 'request-queue')] === true;
  const [params, setParams] = useSearchParams();
  const raw = params.get('request');
  const openId = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const [tab, setTab] = useState<Tab>(openId !== null ? (steward ? 'queue' : 'mine') : 'new');

  const open = (requestId: number) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('request', String(requestId));
        return next;
      },
      { replace: false },
    );
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('request');
        return next;
      },
      { replace: true },
    );

  return (
    <Stack gap="lg">
      <PageHeading title="Request Data">
        Ask the data stewards for data or a report about the pages you can see, and follow your requests.
      </PageHeading>
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'new')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="new">New request</Tabs.Tab>
          <Tabs.Tab value="mine">My requests</Tabs.Tab>
          {steward && <Tabs.Tab value="queue">Queue</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="new" pt="md">
          <RequestForm
            onFiled={() => {
              setTab('mine');
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="mine" pt="md">
          <RequestTable scope="mine" onOpen={open} />
        </Tabs.Panel>
        {steward && (
          <Tabs.Panel value="queue" pt="md">
            <RequestTable scope="queue" onOpen={open} />
          </Tabs.Panel>
        )}
      </Tabs>
      <RequestDrawer requestId={openId} onClose={close} />
    </Stack>
  );
}
