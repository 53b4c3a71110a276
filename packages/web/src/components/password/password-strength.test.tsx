import { evaluatePassword, PASSWORD_MESSAGES, type PasswordEvaluation } from '@portal/shared';
import { act, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '../../test/render';
import { FULL_CHECK_DELAY_MS, usePasswordEvaluation, weakPasswordMessage } from './password-strength';

class FakeWorker {
  static instances: FakeWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  posted: unknown[] = [];
  terminated = false;
  constructor() {
    FakeWorker.instances.push(this);
  }
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  answer(password: string, evaluation: Partial<PasswordEvaluation>) {
    this.onmessage?.(new MessageEvent('message', { data: { password, evaluation } }));
  }
}

afterEach(() => {
  vi.useRealTimers();
  FakeWorker.instances = [];
});

interface ProbeState {
  current: ReturnType<typeof usePasswordEvaluation> | null;
  set: (value: string) => void;
}

function Probe({ initial, state }: { initial: string; state: ProbeState }) {
  const [password, setPassword] = useState(initial);
  state.set = setPassword;
  state.current = usePasswordEvaluation(password);
  return null;
}

async function mount(initial: string) {
  const state: ProbeState = { current: null, set: () => {} };
  const rendered = await render(<Probe initial={initial} state={state} />);
  return { state, ...rendered };
}

describe('usePasswordEvaluation', () => {
  it('evaluates at once on this thread when workers are unavailable', async () => {
    vi.stubGlobal('Worker', undefined);
    const { state } = await mount('short');
    expect(state.current!.checking).toBe(false);
    expect(state.current!.evaluation.valid).toBe(false);
    expect(state.current!.evaluation.problems).toContain(PASSWORD_MESSAGES.length);
  });

  it('asks the worker for the full evaluation after typing stops and uses its answer for that password only', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('Worker', FakeWorker);
    const { state, unmount } = await mount('Kx7#qPv9!mZt2$Lw');
    const worker = FakeWorker.instances[0]!;
    expect(state.current!.checking).toBe(true);
    // Until the worker answers: this thread's own evaluation (with or without word lists, as other tests of this
    // worker left the shared module).
    expect(state.current!.evaluation).toEqual(evaluatePassword('Kx7#qPv9!mZt2$Lw'));

    await act(() => vi.advanceTimersByTimeAsync(FULL_CHECK_DELAY_MS - 1));
    expect(worker.posted).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(worker.posted).toEqual([{ id: 1, password: 'Kx7#qPv9!mZt2$Lw' }]);

    const full: PasswordEvaluation = {
      valid: false,
      score: 2,
      label: 'Fair',
      problems: [PASSWORD_MESSAGES.noCommon],
      requirements: [],
      dictionaryChecked: true,
    };
    await act(async () => worker.answer('Kx7#qPv9!mZt2$Lw', full));
    expect(state.current).toEqual({ evaluation: full, checking: false });

    // A new password shows the quick evaluation again until the worker answers for it.
    await act(async () => state.set('Kx7#qPv9!mZt2$Lwx'));
    expect(state.current!.checking).toBe(true);
    expect(state.current!.evaluation).toEqual(evaluatePassword('Kx7#qPv9!mZt2$Lwx'));

    unmount();
    expect(worker.terminated).toBe(true);
  });
});

describe('weakPasswordMessage', () => {
  it('lists the problems after the SPEC prefix, or says the password is too weak', () => {
    const base = { valid: false, score: 1, label: 'Weak', requirements: [], dictionaryChecked: true } as const;
    expect(weakPasswordMessage({ ...base, problems: ['A', 'B'] } as unknown as PasswordEvaluation)).toBe(
      'Password does not meet security requirements: A; B',
    );
    expect(weakPasswordMessage({ ...base, problems: [] } as unknown as PasswordEvaluation)).toBe(
      `Password does not meet security requirements: ${PASSWORD_MESSAGES.tooWeak}`,
    );
  });
});
