/**
 * Who gets what, and when (GET /api/schools/{id}/messages/preview): each planned message with its
 * class, its time in Botswana time, its status, and its recipients and those left out with why,
 * opened per message (docs/outreach.md, "The season timeline"). Next to each e-mail, the same
 * message by SMS: the phones it goes to, its segments and estimated cost, and its text when opened
 * (docs/sms.md, "The season by SMS").
 */
import { Fragment, useState } from 'react';
import { formatDate } from '@contract/format';
import { formatPula } from '@contract/money';
import { SMS_PREVIEW_MSG as S } from '@contract/season-sms-messages';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import type { MessagesPreview } from '@contract/outreach';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Loaded } from '../../../components/ui/loaded';
import { useMessagePreview } from '../api/messages';

type PlannedMessage = MessagesPreview['messages'][number];

const STATUS_TONE: Record<PlannedMessage['status'], BadgeTone> = { planned: 'blue', sent: 'green', unplanned: 'yellow' };

export function PreviewCard({ schoolId }: { schoolId: number }) {
  const preview = useMessagePreview(schoolId);
  return (
    <Card>
      <CardBody className="stack">
        <h2>{M.previewHeading}</h2>
        <Loaded query={preview} failed={M.previewFailed} loading={M.loadingPreview}>
          {(data) => <PreviewTable preview={data} />}
        </Loaded>
      </CardBody>
    </Card>
  );
}

export function PreviewTable({ preview }: { preview: MessagesPreview }) {
  const [open, setOpen] = useState<number | null>(null);
  if (preview.messages.length === 0) return <p className="muted">{M.previewEmpty}</p>;
  return (
    <div className="table-wrap">
      <table className="staff-table stacked-table" aria-label={M.previewTable}>
        <thead>
          <tr>
            <th scope="col">{M.columnMessage}</th>
            <th scope="col">{M.columnClass}</th>
            <th scope="col">{M.columnWhen}</th>
            <th scope="col">{M.columnStatus}</th>
            <th scope="col">{M.columnRecipients}</th>
            <th scope="col">{S.heading}</th>
          </tr>
        </thead>
        <tbody>
          {preview.messages.map((message, index) => {
            const expanded = open === index;
            const detailsId = `preview-recipients-${index}`;
            return (
              <Fragment key={`${message.kind}-${message.albumId ?? 'school'}-${message.sendAt ?? index}`}>
                <tr>
                  <td data-label={M.columnMessage}>
                    <strong>{message.label}</strong>
                  </td>
                  <td data-label={M.columnClass}>{message.albumName ?? M.wholeSchool}</td>
                  <td data-label={M.columnWhen}>{message.sendAt ? formatDate(message.sendAt, 'dateTime') : <span className="muted">{M.notPlanned}</span>}</td>
                  <td data-label={M.columnStatus}>
                    <Badge tone={STATUS_TONE[message.status]}>{M.statusLabels[message.status]}</Badge>
                    {message.reason ? <div className="muted preview-reason">{message.reason}</div> : null}
                  </td>
                  <td data-label={M.columnRecipients}>
                    <Button variant="ghost" size="sm" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setOpen(expanded ? null : index)}>
                      {expanded ? M.hideRecipients : M.showRecipients(message.recipients.length, message.skipped.length)}
                    </Button>
                  </td>
                  <td data-label={S.heading}>
                    <SmsSummary sms={message.sms} />
                  </td>
                </tr>
                {expanded ? (
                  <tr className="preview-details">
                    <td colSpan={6} id={detailsId}>
                      <Recipients message={message} />
                      <SmsDetails message={message} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Recipients({ message }: { message: PlannedMessage }) {
  return (
    <div className="stack-tight">
      {message.recipients.length === 0 ? <p className="muted">{M.noRecipients}</p> : null}
      <ul className="staff-list" aria-label={M.recipientsOf(message.label, message.albumName)}>
        {message.recipients.map((recipient) => (
          <li key={`${recipient.email}-${recipient.studentName ?? ''}`} className="row between">
            <span className="preview-email">{recipient.email}</span>
            <span className="row">
              {recipient.studentName ? <span>{recipient.studentName}</span> : null}
              <Badge tone={recipient.source === 'subscribed' ? 'green' : 'neutral'}>{M.sourceLabels[recipient.source]}</Badge>
            </span>
          </li>
        ))}
      </ul>
      <SkippedList heading={M.skippedHeading} skipped={message.skipped.map(({ email, reason }) => ({ address: email, reason }))} />
    </div>
  );
}

/** Who a message leaves out (an address or a phone) and why, under its heading; nothing when none. */
function SkippedList({ heading, skipped }: { heading: string; skipped: readonly { address: string; reason: string }[] }) {
  if (skipped.length === 0) return null;
  return (
    <>
      <h3 className="label">{heading}</h3>
      <ul className="staff-list" aria-label={heading}>
        {skipped.map(({ address, reason }) => (
          <li key={`${address}-${reason}`} className="row between">
            <span className="preview-email">{address}</span>
            <span className="muted">{reason}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The phones, segments and estimated cost of a message by SMS (segments × phones × SMS_COST_THEBE). */
function SmsSummary({ sms }: { sms: PlannedMessage['sms'] }) {
  if (sms.recipients.length === 0) return <span className="muted">{S.noSms}</span>;
  return (
    <div className="stack-tight">
      <span>{S.recipients(sms.recipients.length)}</span>
      {sms.segments > 1 ? <Badge tone="yellow">{S.segments(sms.segments, sms.encoding)}</Badge> : <span className="muted">{S.segments(sms.segments, sms.encoding)}</span>}
      <span>
        {S.costLabel}: {S.cost(formatPula(sms.costThebe, 'thebe'))}
      </span>
    </div>
  );
}

/** The SMS text (as the first phone gets it) and its phones, under the e-mail's recipients. */
function SmsDetails({ message }: { message: PlannedMessage }) {
  const { sms } = message;
  return (
    <div className="stack-tight">
      <h3 className="label">{S.text}</h3>
      <p className="sms-text" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {sms.text}
      </p>
      <p className="muted">
        {S.segments(sms.segments, sms.encoding)} · {sms.units} / 160 · {S.costLabel}: {S.cost(formatPula(sms.costThebe, 'thebe'))}
      </p>
      {sms.recipients.length > 0 ? (
        <ul className="staff-list" aria-label={S.heading}>
          {sms.recipients.map((recipient) => (
            <li key={`${recipient.phone}-${recipient.studentName ?? ''}`} className="row between">
              <span className="preview-email">{recipient.phone}</span>
              {recipient.studentName ? <span>{recipient.studentName}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{S.noSms}</p>
      )}
      <SkippedList heading={S.skipped} skipped={sms.skipped.map(({ phone, reason }) => ({ address: phone, reason }))} />
    </div>
  );
}
