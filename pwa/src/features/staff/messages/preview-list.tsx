/**
 * Who gets what, and when (GET /api/schools/{id}/messages/preview): each planned message with its
 * class, its time in Botswana time, its status, and its recipients and those left out with why,
 * opened per message (docs/outreach.md, "The season timeline").
 */
import { Fragment, useState } from 'react';
import { formatDate } from '@contract/format';
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
                </tr>
                {expanded ? (
                  <tr className="preview-details">
                    <td colSpan={5} id={detailsId}>
                      <Recipients message={message} />
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
      {message.skipped.length > 0 ? (
        <>
          <h3 className="label">{M.skippedHeading}</h3>
          <ul className="staff-list" aria-label={M.skippedHeading}>
            {message.skipped.map((skipped) => (
              <li key={`${skipped.email}-${skipped.reason}`} className="row between">
                <span className="preview-email">{skipped.email}</span>
                <span className="muted">{skipped.reason}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
