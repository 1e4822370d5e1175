/** Create an account, sign out, forget the password, reset it with the e-mailed link. */
import { it } from 'vitest';
import { resetLinkIn } from '../api/test/mail-catcher';
import { toastWith, uniqueEmail } from './support/journey';
import { describeJourney } from './support/journey-suite';

describeJourney('parent accounts', (env) => {
  it('registers, signs out, and resets a forgotten password from the e-mailed link', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const email = uniqueEmail('account');

    await page.goto(`${env.server.url}/customer/auth`);
    await page.getByRole('tab', { name: 'Create Account' }).click();
    await page.getByLabel('First name').fill('Mpho');
    await page.getByLabel('Last name').fill('Dube');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('first-pass');
    await page.getByLabel('Confirm password', { exact: true }).fill('first-pass');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/customer/orders');
    await page.getByText('Welcome, Mpho Dube').waitFor();
    await page.getByRole('heading', { name: 'No Orders Yet' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/customer/auth');

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await toastWith(page, 'Email sent!').waitFor();
    await page.getByRole('button', { name: 'Try Different Email' }).click();
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();

    const link = resetLinkIn((await env.mail.waitFor(email, 0, 20_000)).text).href;
    await page.goto(link.replace(/^https?:\/\/[^/]+/, env.server.url));
    await page.getByRole('heading', { name: 'Set New Password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('second-pass');
    await page.getByLabel('Confirm password', { exact: true }).fill('second-pass');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Password Reset Complete!' }).waitFor();
    await page.getByText('Redirecting you to your order history...').waitFor();
    await page.waitForURL('**/customer/orders');
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();

    // The old password no longer works; the new one does.
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('second-pass');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await toastWith(page, 'Login Successful').waitFor();
    await page.waitForURL('**/customer/orders');
    await context.close();
  });
}, { mail: true });
