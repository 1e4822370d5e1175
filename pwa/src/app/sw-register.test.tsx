import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster, resetToasts } from '../components/ui/toast';
import { watchServiceWorker } from './sw-register';

afterEach(() => act(() => resetToasts()));

/** A service worker container and registration as far as sw-register.ts uses them. */
function fakeWorkers({ controlled, waiting = false }: { controlled: boolean; waiting?: boolean }) {
  const worker = () => Object.assign(new EventTarget(), { state: 'installing', postMessage: vi.fn() });
  const registration = Object.assign(new EventTarget(), { waiting: waiting ? worker() : null, installing: null as ReturnType<typeof worker> | null });
  const container = Object.assign(new EventTarget(), {
    controller: controlled ? worker() : null,
    register: vi.fn(async () => registration),
  });
  return { container, registration, worker, asContainer: container as unknown as ServiceWorkerContainer };
}

describe('the service worker registration', () => {
  it('registers /sw.js and runs onFirstControl once when the first worker takes the page over', async () => {
    const { container, asContainer } = fakeWorkers({ controlled: false });
    const onFirstControl = vi.fn(async () => undefined);
    const reload = vi.fn();
    await watchServiceWorker(asContainer, onFirstControl, reload);
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(onFirstControl).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('offers an update that installed behind the worker in charge; Reload tells it to take over, then reloads', async () => {
    render(<Toaster />);
    const { container, registration, worker, asContainer } = fakeWorkers({ controlled: true });
    const onFirstControl = vi.fn(async () => undefined);
    const reload = vi.fn();
    await watchServiceWorker(asContainer, onFirstControl, reload);
    expect(screen.queryByText('Reload')).toBeNull();

    const update = worker();
    registration.installing = update;
    registration.dispatchEvent(new Event('updatefound'));
    update.state = 'installed';
    act(() => void update.dispatchEvent(new Event('statechange')));
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(update.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(onFirstControl).not.toHaveBeenCalled();
  });

  it('offers an update that was already waiting when the page opened, but never the first install', async () => {
    render(<Toaster />);
    const waiting = fakeWorkers({ controlled: true, waiting: true });
    await act(() => watchServiceWorker(waiting.asContainer));
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    act(() => resetToasts());

    const first = fakeWorkers({ controlled: false });
    await act(() => watchServiceWorker(first.asContainer));
    const installing = first.worker();
    first.registration.installing = installing;
    first.registration.dispatchEvent(new Event('updatefound'));
    installing.state = 'installed';
    act(() => void installing.dispatchEvent(new Event('statechange')));
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
  });
});
