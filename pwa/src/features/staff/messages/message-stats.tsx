/**
 * A school's message statistics (GET /api/schools/{id}/messages/stats, docs/outreach.md,
 * "Statistics"): scheduled, sent and failed, and the orders placed within 7 days of a message with
 * their revenue, in total and per kind of message; beside them the SMS sent, delivered and failed
 * (docs/sms.md, "Delivery receipts").
 */
import { ATTRIBUTION_DAYS, type MessageStats } from '@contract/outreach';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { formatPula } from '@contract/money';
import { Card, CardBody } from '../../../components/ui/card';
import { Loaded } from '../../../components/ui/loaded';
import { StatCardList } from '../common/stat-card-list';
import { useMessageStats } from '../api/messages';

export function StatsCard({ schoolId }: { schoolId: number }) {
  const stats = useMessageStats(schoolId);
  return (
    <Card>
      <CardBody className="stack">
        <h2>{M.statsHeading}</h2>
        <Loaded query={stats} failed={M.statsFailed} loading={M.loadingStats}>
          {(data) => <StatsView stats={data} />}
        </Loaded>
      </CardBody>
    </Card>
  );
}

export function StatsView({ stats }: { stats: MessageStats }) {
  return (
    <div className="stack">
      <StatCardList
        className="message-stats"
        label={M.statsLabel}
        cards={[
          { label: M.scheduled, value: stats.scheduled },
          { label: M.sent, value: stats.sent },
          { label: M.failed, value: stats.failed },
          { label: M.ordersWithin(ATTRIBUTION_DAYS), value: stats.ordersWithin7Days },
          { label: M.revenueWithin(ATTRIBUTION_DAYS), value: formatPula(stats.revenueWithin7Days, 'thebe') },
        ]}
      />
      <StatCardList
        className="message-stats"
        label={M.smsStatsLabel}
        cards={[
          { label: M.smsSent, value: stats.sms.sent },
          { label: M.smsDelivered, value: stats.sms.delivered },
          { label: M.smsFailed, value: stats.sms.failed },
        ]}
      />
      {stats.byKind.length === 0 ? (
        <p className="muted">{M.statsEmpty}</p>
      ) : (
        <div className="table-wrap">
          <table className="staff-table stacked-table" aria-label={M.statsByKind}>
            <thead>
              <tr>
                <th scope="col">{M.columnMessage}</th>
                <th scope="col">{M.scheduled}</th>
                <th scope="col">{M.sent}</th>
                <th scope="col">{M.failed}</th>
                <th scope="col">{M.columnOrders}</th>
                <th scope="col">{M.columnRevenue}</th>
              </tr>
            </thead>
            <tbody>
              {stats.byKind.map((row) => (
                <tr key={row.kind}>
                  <td data-label={M.columnMessage}>{row.label}</td>
                  <td data-label={M.scheduled}>{row.scheduled}</td>
                  <td data-label={M.sent}>{row.sent}</td>
                  <td data-label={M.failed}>{row.failed}</td>
                  <td data-label={M.columnOrders}>{row.orders}</td>
                  <td data-label={M.columnRevenue}>{formatPula(row.revenue, 'thebe')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
