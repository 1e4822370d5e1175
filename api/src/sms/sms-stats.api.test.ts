import smpp from 'smpp';
import { expect, it } from 'vitest';
import { describeApi, staffClient } from '../../test/harness';
import { smsSuite } from '../../test/sms-suite';
import { createSchool } from '../../test/fixtures';
import type { MessageStats } from '../../contract/outreach';

/** Staff see a school's SMS sent, delivered and failed beside its e-mail figures (docs/sms.md, "Delivery receipts"). */
describeApi('SMS figures for staff', () => {
  const suite = smsSuite();

  it('counts the SMS by what the SMS centre and its receipts said, and leaves them out of the e-mail figures', async () => {
    const staff = await staffClient(suite.server);
    const school = await createSchool(suite.server, { name: 'Sms Figures Primary' });
    const { outbox } = suite.server.runtime.services;
    const sms = (text: string) => outbox.enqueue({ channel: 'sms', kind: 'photos_online', to: '+26771234560', subject: '', text, html: '', schoolId: school.id });
    await sms('delivered one');
    await sms('undelivered one');
    await sms('expired one');
    await sms('no receipt yet');
    await outbox.enqueue({ kind: 'photos_online', to: 'family@example.test', subject: 'Photos', text: 'e-mail', html: '<p>e-mail</p>', schoolId: school.id });
    await outbox.deliverDue();
    suite.smsc.refuseNext(smpp.ESME_RINVDSTADR, 1);
    await sms('refused one');
    await outbox.deliverDue();
    await outbox.enqueue({ channel: 'sms', kind: 'photos_online', to: '+26771234561', subject: '', text: 'later', html: '', schoolId: school.id, notBefore: Date.now() + 60 * 60_000 });
    const id = (text: string) => suite.smsc.messages.find((m) => m.text === text)?.smscId ?? '';
    const stored = async () => Number(((await suite.server.runtime.knex('outbox_messages').whereNotNull('smsc_message_id').count({ n: '*' })) as { n: number | string }[])[0]?.n);
    const deadline = Date.now() + 5_000;
    while ((await stored()) < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await suite.smsc.deliver(id('delivered one'), 'DELIVRD');
    await suite.smsc.deliver(id('undelivered one'), 'UNDELIV');
    await suite.smsc.deliver(id('expired one'), 'EXPIRED');

    const res = await staff.get(`/api/schools/${school.id}/messages/stats`);
    expect(res.status).toBe(200);
    const stats = res.body as MessageStats;
    expect(stats.sms).toEqual({ scheduled: 1, sent: 4, delivered: 1, failed: 3 });
    expect(stats).toMatchObject({ scheduled: 0, sent: 1, failed: 0 });
    expect(stats.byKind.find((k) => k.kind === 'photos_online')).toMatchObject({ scheduled: 0, sent: 1, failed: 0 });
  });
});
