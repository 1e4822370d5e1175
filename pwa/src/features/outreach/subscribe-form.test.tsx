import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSENT, GUARDIAN_MSG, MSG, OUTREACH_MSG, OUTREACH_SCREEN_MSG } from '@contract/messages';
import { GUARDIAN_PHONE_MSG, GUARDIAN_PHONE_SCREEN_MSG as P } from '@contract/guardian-phone';
import { PHONE_MSG } from '@contract/phone';
import { createQueryClient } from '../../lib/query-client';
import { SubscribeForm } from './subscribe-form';
import { SubscribeOffer } from './subscribe-offer';

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
const withClient = (ui: React.ReactNode) => render(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);
const consentBox = () => screen.getByRole('checkbox', { name: CONSENT.text });

// Radix's checkbox measures its hidden form input; jsdom has no ResizeObserver.
beforeEach(() =>
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  ),
);
afterEach(() => vi.unstubAllGlobals());

describe('the subscribe form', () => {
  it('shows the consent texts word for word, unticked, and says why without the tick (nothing is sent)', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    withClient(<SubscribeForm defaultChannel="email" />);
    expect(consentBox().getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('checkbox', { name: CONSENT.marketing }).getAttribute('aria-checked')).toBe('false');
    const email = screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel);
    expect(document.activeElement).toBe(email);
    await userEvent.type(email, 'mother@example.com');
    const subscribe = screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe });
    expect(subscribe.hasAttribute('disabled')).toBe(false);
    await userEvent.click(subscribe);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(OUTREACH_MSG.consentRequired);
    expect(consentBox().getAttribute('aria-describedby')).toBe(alert.id);
    expect(document.activeElement).toBe(consentBox());
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses an address that is not one, beside the field', async () => {
    vi.stubGlobal('fetch', vi.fn());
    withClient(<SubscribeForm defaultChannel="email" />);
    await userEvent.type(screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel), 'not-an-address');
    await userEvent.click(consentBox());
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    expect(screen.getByRole('alert').textContent).toBe(MSG.validEmail);
    expect(screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel).getAttribute('aria-invalid')).toBe('true');
  });

  it('posts the address, the consent and the marketing choice, then says to check the e-mail', async () => {
    const fetch = vi.fn(() => json(202, { message: GUARDIAN_MSG.subscribeAccepted, consentVersion: CONSENT.version }));
    vi.stubGlobal('fetch', fetch);
    withClient(<SubscribeForm defaultChannel="email" />);
    await userEvent.type(screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel), ' Mother@Example.com ');
    await userEvent.click(consentBox());
    await userEvent.click(screen.getByRole('checkbox', { name: CONSENT.marketing }));
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    const heading = await screen.findByRole('heading', { name: OUTREACH_SCREEN_MSG.checkEmailTitle });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText(GUARDIAN_MSG.subscribeAccepted)).toBeTruthy();
    expect(screen.getByText(OUTREACH_SCREEN_MSG.checkEmailSentTo('mother@example.com'))).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/guardians/subscribe');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'mother@example.com', consent: true, marketing: true });
  });

  it('says so clearly when rate-limited (429)', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(429, { message: MSG.tooManyAttempts, code: 'RATE_LIMITED' })));
    withClient(<SubscribeForm defaultChannel="email" />);
    await userEvent.type(screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel), 'mother@example.com');
    await userEvent.click(consentBox());
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    expect((await screen.findByRole('alert')).textContent).toBe(OUTREACH_SCREEN_MSG.rateLimited);
    expect(screen.queryByRole('heading', { name: OUTREACH_SCREEN_MSG.checkEmailTitle })).toBeNull();
  });

  it("puts a 400's field message beside its field, and a 400 without fields above the form", async () => {
    const answers = [
      () => json(400, { message: 'Validation failed', code: 'VALIDATION_ERROR', errors: { consent: OUTREACH_MSG.consentRequired } }),
      () => json(400, { message: 'Open a class or a child first', code: 'NOTHING_TO_FOLLOW' }),
    ];
    vi.stubGlobal('fetch', vi.fn(() => answers.shift()!()));
    withClient(<SubscribeForm defaultChannel="email" />);
    await userEvent.type(screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel), 'mother@example.com');
    await userEvent.click(consentBox());
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    await waitFor(() => expect(consentBox().getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('alert').textContent).toBe(OUTREACH_MSG.consentRequired);
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Open a class or a child first'));
  });
});

describe('the gallery offer', () => {
  it('offers subscribing, and downloads the form only when asked', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(200, { subscribed: false, confirmed: false, email: null, unsubscribed: false })));
    withClient(<SubscribeOffer />);
    expect(screen.getByRole('heading', { name: CONSENT.offer })).toBeTruthy();
    expect(screen.queryByLabelText(OUTREACH_SCREEN_MSG.emailLabel)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen }));
    // By SMS first: most parents read SMS; e-mail is one tap away.
    const phone = await screen.findByLabelText(P.phoneLabel);
    await waitFor(() => expect(document.activeElement).toBe(phone));
    expect(screen.queryByLabelText(OUTREACH_SCREEN_MSG.emailLabel)).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: P.byEmail }));
    expect(screen.getByLabelText(OUTREACH_SCREEN_MSG.emailLabel)).toBeTruthy();
  });

  it('shows one line with the hidden number for a guardian confirmed by phone', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(200, { subscribed: true, confirmed: true, email: null, phone: '+267 7••• ••67', unsubscribed: false })));
    withClient(<SubscribeOffer />);
    expect(await screen.findByText(OUTREACH_SCREEN_MSG.subscribedAsPhone('+267 7••• ••67'))).toBeTruthy();
  });

  it('shows one line with the hidden address once the guardian is confirmed', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(200, { subscribed: true, confirmed: true, email: 'm…@example.com', unsubscribed: false })));
    withClient(<SubscribeOffer />);
    expect(await screen.findByText(OUTREACH_SCREEN_MSG.subscribedAs('m…@example.com'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen })).toBeNull();
  });

  it('offers again after an unsubscribe', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(200, { subscribed: true, confirmed: true, email: 'm…@example.com', unsubscribed: true })));
    withClient(<SubscribeOffer />);
    await waitFor(() => expect(window.sessionStorage.getItem('guardianMe')).not.toBeNull());
    expect(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen })).toBeTruthy();
  });
});

describe('the subscribe form by SMS', () => {
  const subscribed = () => json(202, { message: GUARDIAN_PHONE_MSG.subscribeAccepted, consentVersion: CONSENT.version });
  const bodyOf = (fetch: ReturnType<typeof vi.fn>, call: number) => JSON.parse(String((fetch.mock.calls[call] as unknown as [string, RequestInit])[1].body));

  async function subscribeBySms(typed = '71 234 567') {
    await userEvent.type(screen.getByLabelText(P.phoneLabel), typed);
    await userEvent.click(consentBox());
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    return screen.findByRole('heading', { name: P.codeTitle });
  }

  it('refuses a landline beside the number, sending nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    withClient(<SubscribeForm />);
    expect(document.activeElement).toBe(screen.getByLabelText(P.phoneLabel));
    expect(screen.getByRole('radio', { name: P.bySms })).toHaveProperty('checked', true);
    await userEvent.type(screen.getByLabelText(P.phoneLabel), '391 2345');
    await userEvent.click(consentBox());
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }));
    expect(screen.getByRole('alert').textContent).toBe(PHONE_MSG.notMobile);
    expect(screen.getByLabelText(P.phoneLabel).getAttribute('aria-invalid')).toBe('true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('posts the number as E.164, then asks for the code on a numeric keypad; a wrong code says the tries left, the right one confirms', async () => {
    const answers = [
      subscribed,
      () => json(400, { message: GUARDIAN_PHONE_MSG.codeWrong(4), code: 'CONFIRM_CODE_WRONG', errors: { code: GUARDIAN_PHONE_MSG.codeWrong(4) }, triesLeft: 4 }),
      () => json(200, { confirmed: true, phone: '+26771234567', message: GUARDIAN_PHONE_MSG.confirmed }),
      () => json(200, { subscribed: true, confirmed: true, email: null, phone: '+267 7••• ••67', unsubscribed: false }),
    ];
    const fetch = vi.fn(() => answers.shift()!());
    vi.stubGlobal('fetch', fetch);
    withClient(<SubscribeForm />);
    const heading = await subscribeBySms();
    expect(document.activeElement).toBe(heading);
    expect(bodyOf(fetch, 0)).toEqual({ phone: '+26771234567', consent: true, marketing: false });
    expect(screen.getByText(P.codeSentTo('+267 7••• ••67'))).toBeTruthy();
    const code = screen.getByLabelText(P.codeLabel);
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    await userEvent.type(code, '111111');
    await userEvent.click(screen.getByRole('button', { name: P.confirm }));
    await waitFor(() => expect(screen.getByText(GUARDIAN_PHONE_MSG.codeWrong(4))).toBeTruthy());
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(bodyOf(fetch, 1)).toEqual({ phone: '+26771234567', code: '111111' });

    await userEvent.clear(code);
    await userEvent.type(code, '123 456');
    await userEvent.click(screen.getByRole('button', { name: P.confirm }));
    expect(await screen.findByRole('heading', { name: P.confirmedTitle })).toBeTruthy();
    expect(bodyOf(fetch, 2)).toEqual({ phone: '+26771234567', code: '123456' });
  });

  it('an expired code says so in words and offers only a new code, which posts the same request again', async () => {
    const answers = [
      subscribed,
      () => json(400, { message: GUARDIAN_PHONE_MSG.codeExpired, code: 'CONFIRM_CODE_EXPIRED', errors: { code: GUARDIAN_PHONE_MSG.codeExpired } }),
      subscribed,
    ];
    const fetch = vi.fn(() => answers.shift()!());
    vi.stubGlobal('fetch', fetch);
    withClient(<SubscribeForm />);
    await subscribeBySms('+267 71 234 567');
    await userEvent.type(screen.getByLabelText(P.codeLabel), '654321');
    await userEvent.click(screen.getByRole('button', { name: P.confirm }));
    await waitFor(() => expect(screen.getByText(GUARDIAN_PHONE_MSG.codeExpired)).toBeTruthy());
    expect(screen.queryByRole('button', { name: P.confirm })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: P.newCode }));
    expect(await screen.findByText(P.newCodeSent)).toBeTruthy();
    expect(bodyOf(fetch, 2)).toEqual(bodyOf(fetch, 0));
    expect(screen.getByRole('button', { name: P.confirm })).toBeTruthy();
    expect((screen.getByLabelText(P.codeLabel) as HTMLInputElement).value).toBe('');
  });
});
