import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';
import { unmountAll } from './mounted';

// Lets React's act() know it runs in a test, so it flushes effects and warns about updates outside act.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom lacks these browser APIs; Mantine reads matchMedia and ResizeObserver, the router scrolls the window.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver = ResizeObserverStub;

window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
Element.prototype.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};

afterEach(() => {
  unmountAll();
  // Test files share one module graph (vitest.config.ts): toasts still active would reappear in the next file.
  toast.dismiss();
  document.body.innerHTML = '';
  document.title = '';
  vi.mocked(window.scrollTo).mockClear();
});
