import { describe, expect, it } from 'vitest';
import { sectionLabel } from './permission-sections.js';
import { PERMISSION_APPS, PERMISSION_SECTIONS } from './schemas/permissions.js';

describe('section labels', () => {
  it('name every section in words, with a sentence about it', () => {
    for (const app of PERMISSION_APPS) {
      for (const path of PERMISSION_SECTIONS[app]) {
        const { name, about } = sectionLabel(app, path);
        expect(name, `${app} ${path}`).toMatch(/^[A-Z][^_]*$/);
        expect(name, `${app} ${path}`).not.toMatch(/\b[a-z]+-[a-z]+\b/);
        expect(about, `${app} ${path}`).toMatch(/^[A-Z].*\.$/);
      }
    }
  });

  it('shows a path it has no label for as it is', () => {
    expect(sectionLabel('monitoring', 'retired-section')).toEqual({ name: 'retired-section', about: '' });
  });
});
