/**
 * The dashboard's Coupons tab (docs/packages-and-coupons.md, "Coupons" and "Counting a coupon's
 * uses"): every coupon with its school, discount, minimum, days, uses and whether it can be used
 * today; New Coupon and Edit open the form in a dialog, Delete asks first.
 */
import { useState } from 'react';
import type { Coupon } from '@contract/coupons';
import { formatDate, TIME_ZONE } from '@contract/format';
import { formatPula } from '@contract/money';
import { COUPON_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Loaded } from '../../../components/ui/loaded';
import { Select } from '../../../components/ui/select';
import { errorMessage } from '../../../lib/api-client';
import { useCoupons, useDeleteCoupon } from '../api/coupons';
import { useConfirmDelete } from '../use-confirm-delete';
import { CouponFormDialog } from './coupon-form';

/** Today's date in Botswana (YYYY-MM-DD): a coupon's days are Botswana days. */
export function botswanaToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * Why a coupon can or cannot be used today. The server's `active` decides "Active"; otherwise the
 * badge names the reason: past its last day, before its first, or no use left (paid and held uses
 * fill its total, as the server counts them).
 */
export function couponStatus(coupon: Coupon, today: string): { label: string; tone: BadgeTone } {
  if (coupon.active) return { label: M.statusActive, tone: 'green' };
  if (coupon.endsOn !== null && coupon.endsOn < today) return { label: M.statusExpired, tone: 'neutral' };
  if (coupon.maxUses !== null && coupon.usesPaid + coupon.usesHeld >= coupon.maxUses) return { label: M.statusUsedUp, tone: 'red' };
  if (coupon.startsOn !== null && coupon.startsOn > today) return { label: M.statusNotStarted, tone: 'blue' };
  return { label: M.statusInactive, tone: 'neutral' };
}

export const couponDiscount = (coupon: Coupon): string => (coupon.kind === 'percent' ? M.percentOff(coupon.value) : formatPula(coupon.value));

export function couponDays(coupon: Coupon): string {
  const day = (value: string) => formatDate(value, 'short');
  if (coupon.startsOn && coupon.endsOn) return M.between(day(coupon.startsOn), day(coupon.endsOn));
  if (coupon.startsOn) return M.from(day(coupon.startsOn));
  if (coupon.endsOn) return M.until(day(coupon.endsOn));
  return M.anyDay;
}

export function CouponsTab() {
  const coupons = useCoupons();
  const remove = useDeleteCoupon();
  // null: closed; 'new': the blank form; a coupon: its edit form.
  const [editing, setEditing] = useState<Coupon | 'new' | null>(null);
  const [schoolFilter, setSchoolFilter] = useState('');
  const deletion = useConfirmDelete<Coupon, unknown>(remove, {
    title: M.deleteQuestion,
    description: (coupon) => M.deleteWarning(coupon?.code ?? null),
    confirmLabel: M.deleteConfirm,
    deletedTitle: M.deletedTitle,
    deleted: (coupon) => M.deleted(coupon.code),
    failed: (err) => errorMessage(err, M.deleteFailed),
  });
  const today = botswanaToday();

  return (
    <div className="stack">
      <Card>
        <CardBody className="stack">
          <div className="row between">
            <h2>{M.title}</h2>
            <Button onClick={() => setEditing('new')}>{M.newCoupon}</Button>
          </div>
          <p className="muted">{M.intro}</p>
        </CardBody>
      </Card>
      <Loaded query={coupons} failed={M.loadFailed} loading={M.loading}>
        {(list) => {
          // The schools that have coupons, to show one school's (with those for every school).
          const schools = [...new Map(list.filter((c) => c.schoolId !== null).map((c) => [c.schoolId, c.schoolName ?? String(c.schoolId)])).entries()];
          const shown = schoolFilter === '' ? list : list.filter((c) => c.schoolId === null || String(c.schoolId) === schoolFilter);
          if (list.length === 0) return <p className="muted">{M.empty}</p>;
          return (
            <Card>
              <CardBody className="stack">
                {schools.length > 0 ? (
                  <div className="field" style={{ maxWidth: '24rem' }}>
                    <Label htmlFor="coupons-school-filter">{M.school}</Label>
                    <Select id="coupons-school-filter" value={schoolFilter} onChange={(event) => setSchoolFilter(event.target.value)}>
                      <option value="">{M.allSchools}</option>
                      {schools.map(([id, name]) => (
                        <option key={id} value={String(id)}>
                          {name}
                        </option>
                      ))}
                    </Select>
                  </div>
                ) : null}
                <div className="table-wrap">
                  <table className="staff-table stacked-table" aria-label={M.tableLabel}>
                    <thead>
                      <tr>
                        <th scope="col">{M.columnCode}</th>
                        <th scope="col">{M.columnSchool}</th>
                        <th scope="col">{M.columnDiscount}</th>
                        <th scope="col">{M.columnMinimum}</th>
                        <th scope="col">{M.columnDates}</th>
                        <th scope="col">{M.columnUses}</th>
                        <th scope="col">{M.columnStatus}</th>
                        <th scope="col">{M.columnActions}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((coupon) => {
                        const status = couponStatus(coupon, today);
                        const notes = [coupon.oncePer === 'order' ? null : M.oncePerLabels[coupon.oncePer], coupon.excludesPackages ? M.packagesExcluded : null].filter(Boolean).join(' · ');
                        return (
                          <tr key={coupon.id}>
                            <td data-label={M.columnCode}>
                              <code>{coupon.code}</code>
                            </td>
                            <td data-label={M.columnSchool}>{coupon.schoolName ?? M.allSchools}</td>
                            <td data-label={M.columnDiscount}>
                              {couponDiscount(coupon)}
                              {notes ? <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>{notes}</span> : null}
                            </td>
                            <td data-label={M.columnMinimum}>{coupon.minOrder === null ? M.noMinimum : formatPula(coupon.minOrder)}</td>
                            <td data-label={M.columnDates}>{couponDays(coupon)}</td>
                            <td data-label={M.columnUses}>
                              {M.uses(coupon.usesPaid, coupon.maxUses, coupon.usesHeld)}
                            </td>
                            <td data-label={M.columnStatus}>
                              <Badge tone={status.tone}>{status.label}</Badge>
                            </td>
                            <td data-label={M.columnActions}>
                              <div className="row">
                                <Button variant="outline" size="sm" onClick={() => setEditing(coupon)} aria-label={M.editLabel(coupon.code)}>
                                  {M.edit}
                                </Button>
                                <Button variant="destructive" size="sm" onClick={() => deletion.ask(coupon)} aria-label={M.deleteLabel(coupon.code)}>
                                  {M.delete}
                                </Button>
                              </div>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
                <p className="muted">{M.usesHint}</p>
              </CardBody>
            </Card>
          );
        }}
      </Loaded>
      <CouponFormDialog open={editing !== null} coupon={editing === 'new' || editing === null ? null : editing} onOpenChange={(open) => !open && setEditing(null)} />
      {deletion.dialog}
    </div>
  );
}
