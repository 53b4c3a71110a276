import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** SPEC section 2: a new path scrolls the window smoothly to the top (instantly if the user asks for less motion). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [pathname]);

  return null;
}
