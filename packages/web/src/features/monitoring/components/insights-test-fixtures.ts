import type { InsightDetail } from '@portal/shared';

/** The key insight the insight editing screens' tests open: a draft on page 1.2, at version 2. */
export const INSIGHT: InsightDetail = {
  id: 4,
  page_id: 5,
  title: 'Falls fell',
  body: '<p>Down 20%</p>',
  status: 'draft',
  author: { id: 3, name: 'Ada Admin' },
  published_at: null,
  updated_at: '2026-03-02T10:00:00Z',
  version: 2,
  abilities: { edit: true, publish: true, delete: true },
  page: { id: 5, number: '1.2', title: 'Falls with injury' },
};
