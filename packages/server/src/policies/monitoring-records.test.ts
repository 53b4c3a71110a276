import { describe, expect, it } from 'vitest';
import type { MonitoringActor } from './monitoring.js';
import {
  DATASET_ABILITIES,
  datasetRules,
  insightRules,
  PAGE_NODE_ABILITIES,
  pageNodeRules,
  pageRules,
  requestDetailRules,
  requestRules,
} from './monitoring-records.js';
import { authorize, can, serialize } from './rules.js';
import { appActor, refusal } from './rules-test-kit.js';

const actor = (role: string, extra: Partial<MonitoringActor> = {}) => appActor('monitoring', role, extra);

describe('monitoring dataset rules', () => {
  const dataset = { projectId: 1 };

  it('lets data entry import but only administrators mark it patient-level or delete it', () => {
    expect(serialize(datasetRules, actor('data_entry'), dataset, DATASET_ABILITIES)).toEqual({
      import: true,
      manage: false,
    });
    expect(serialize(datasetRules, actor('monitoring_admin'), dataset)).toEqual({
      import: true,
      manage: true,
      delete: true,
    });
    expect(serialize(datasetRules, actor('viewer'), dataset)).toEqual({ import: false, manage: false, delete: false });
    expect(can(datasetRules, 'delete', actor('viewer', { isSuperadmin: true, role: null }), dataset)).toBe(true);
  });

  it('says why an editor may not set retention or delete, and hides another project’s dataset', () => {
    expect(refusal(() => authorize(datasetRules, 'manage', actor('data_entry'), dataset))).toEqual({
      status: 403,
      message: 'Only a monitoring administrator may mark a dataset patient-level or set how long its rows are kept.',
    });
    expect(refusal(() => authorize(datasetRules, 'delete', actor('page_owner'), dataset))).toEqual({
      status: 403,
      message: 'Only a monitoring administrator may delete a dataset.',
    });
    expect(refusal(() => authorize(datasetRules, 'delete', actor('monitoring_admin'), dataset))).toBeNull();
    expect(refusal(() => authorize(datasetRules, 'delete', actor('monitoring_admin'), { projectId: 2 }))).toEqual({
      status: 404,
      message: 'Dataset not found.',
    });
  });
});

describe('monitoring page node rules', () => {
  const page = (level: 'view' | 'edit' | 'manage') => ({ projectId: 1, level });

  it('carries the abilities of the tree: editors edit, managers delete and set permissions by their sections', () => {
    expect(serialize(pageNodeRules, actor('page_owner'), page('edit'), PAGE_NODE_ABILITIES)).toEqual({
      edit: true,
      delete: false,
      manage_permissions: false,
      add_insight: true,
    });
    expect(serialize(pageNodeRules, actor('monitoring_admin'), page('manage'), PAGE_NODE_ABILITIES)).toEqual({
      edit: true,
      delete: true,
      manage_permissions: true,
      add_insight: true,
    });
    // A page owner granted manage on a page still lacks the sections to delete it or set its permissions.
    expect(serialize(pageNodeRules, actor('page_owner'), page('manage'), ['delete', 'manage_permissions'])).toEqual({
      delete: false,
      manage_permissions: false,
    });
    expect(serialize(pageNodeRules, actor('monitoring_admin'), page('view'), PAGE_NODE_ABILITIES)).toEqual({
      edit: false,
      delete: false,
      manage_permissions: false,
      add_insight: false,
    });
  });

  it('lets only those who manage a page restrict it, and only administrators restrict a new one', () => {
    expect(refusal(() => authorize(pageNodeRules, 'restrict', actor('page_owner'), page('edit')))).toEqual({
      status: 403,
      message: 'Only people who manage this page can restrict it or open it up.',
    });
    expect(refusal(() => authorize(pageNodeRules, 'restrict', actor('page_owner'), page('manage')))).toBeNull();
    const created = { projectId: 1, level: 'none' as const };
    expect(refusal(() => authorize(pageNodeRules, 'restrict_new', actor('page_owner'), created))).toEqual({
      status: 403,
      message: 'Only monitoring administrators can restrict a new page.',
    });
    expect(can(pageNodeRules, 'restrict_new', actor('monitoring_admin'), created)).toBe(true);
  });

  it('deletes a branch only when every page below is managed too', () => {
    const admin = actor('monitoring_admin');
    expect(can(pageNodeRules, 'delete_branch', admin, { ...page('manage'), below: ['manage', 'manage'] })).toBe(true);
    expect(
      refusal(() => authorize(pageNodeRules, 'delete_branch', admin, { ...page('manage'), below: ['manage', 'none'] })),
    ).toEqual({ status: 403, message: 'Some sub-pages of this branch are not yours to delete.' });
    // Not allowed to delete the page itself: the page's refusal, not the branch's.
    expect(
      refusal(() => authorize(pageNodeRules, 'delete_branch', admin, { ...page('edit'), below: ['manage'] })),
    ).toEqual({ status: 403, message: 'You may not change this page.' });
  });

  it('answers another project’s page as not found, and edit on a viewed page with the page’s refusal', () => {
    expect(
      refusal(() => authorize(pageNodeRules, 'edit', actor('monitoring_admin'), { projectId: 2, level: 'manage' })),
    ).toEqual({ status: 404, message: 'Page not found.' });
    expect(refusal(() => authorize(pageRules, 'edit', actor('page_owner'), page('view')))).toEqual({
      status: 403,
      message: 'You may not change this page.',
    });
  });
});

describe('monitoring insight rules', () => {
  it('lets editors of the page who may write key insights edit, publish and delete them', () => {
    const editable = { projectId: 1, level: 'edit' as const };
    expect(serialize(insightRules, actor('page_owner'), editable)).toEqual({ edit: true, publish: true, delete: true });
    expect(serialize(insightRules, actor('data_entry'), editable)).toEqual({
      edit: false,
      publish: false,
      delete: false,
    });
    expect(refusal(() => authorize(insightRules, 'publish', actor('data_entry'), editable))).toEqual({
      status: 403,
      message: 'You may not change the insights of this page.',
    });
    expect(refusal(() => authorize(insightRules, 'edit', actor('page_owner'), { ...editable, projectId: 2 }))).toEqual({
      status: 404,
      message: 'Insight not found.',
    });
  });
});

describe('monitoring data request rules', () => {
  const open = { projectId: 1, requesterId: 5, status: 'submitted' as const };

  it('offers the requester cancelling and comments, a steward the controls and the upload while it takes a file', () => {
    expect(serialize(requestDetailRules, actor('viewer'), open)).toEqual({
      steward: false,
      cancel: true,
      comment: true,
      upload: false,
    });
    const asked = { ...open, requesterId: 9 };
    expect(serialize(requestDetailRules, actor('data_entry'), asked)).toEqual({
      steward: true,
      cancel: false,
      comment: true,
      upload: true,
    });
    expect(can(requestDetailRules, 'upload', actor('data_entry'), { ...asked, status: 'delivered' })).toBe(true);
    expect(can(requestDetailRules, 'upload', actor('data_entry'), { ...asked, status: 'closed' })).toBe(false);
    expect(can(requestDetailRules, 'comment', actor('page_owner'), asked)).toBe(false);
  });

  it('tells a requester they may only cancel, and hides another project’s request', () => {
    expect(refusal(() => authorize(requestRules, 'handle', actor('viewer'), open))).toEqual({
      status: 403,
      message: 'You may only cancel your request; the data stewards handle the rest.',
    });
    expect(refusal(() => authorize(requestRules, 'handle', actor('data_entry'), open))).toBeNull();
    expect(refusal(() => authorize(requestRules, 'handle', actor('data_entry'), { ...open, projectId: 2 }))).toEqual({
      status: 404,
      message: 'Request not found.',
    });
  });
});
