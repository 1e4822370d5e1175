import { useEffect, useRef } from 'react';

/**
 * Runs `action(value)` once per mounted screen when `value` is there: a link's one request
 * (confirm, unsubscribe, restore, a student code) must not go out twice, and React's strict mode
 * runs effects twice in development.
 */
export function useOnce<T>(value: T | null | undefined | false, action: (value: T) => void): void {
  const started = useRef(false);
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => {
    if (started.current || value === null || value === undefined || value === false) return;
    started.current = true;
    latest.current(value);
  }, [value]);
}
