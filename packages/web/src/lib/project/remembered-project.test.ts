import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLastProjectId, rememberProjectId, subscribeLastProjectId } from './project-path';

afterEach(() => localStorage.clear());

describe('the remembered project', () => {
  it('tells its subscribers when it changes, and only then', () => {
    // Test files share modules (isolate: false): start from no remembered project whatever ran before.
    rememberProjectId(null);
    const listener = vi.fn();
    const unsubscribe = subscribeLastProjectId(listener);
    rememberProjectId('4');
    expect(readLastProjectId()).toBe('4');
    expect(listener).toHaveBeenCalledTimes(1);
    rememberProjectId('4');
    rememberProjectId('not a project');
    expect(listener).toHaveBeenCalledTimes(1);
    rememberProjectId(null);
    expect(readLastProjectId()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    rememberProjectId('5');
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
