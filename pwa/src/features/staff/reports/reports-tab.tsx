/**
 * The dashboard's Reports tab (docs/reports.md, "The Reports tab"): for a range of days, every
 * school's figures in a table sortable by each column, a school's classes one tap away, the best
 * sellers, the two charts (uPlot, loaded only here) and the table's CSV. Built for a photographer
 * on a tablet on Monday morning deciding which schools need a push.
 */
import { useState } from 'react';
import type { ClassReport, ReportFigures, SchoolReport, SchoolsReport } from '@contract/reports';
import { formatDate } from '@contract/format';
import { REPORT_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Loaded } from '../../../components/ui/loaded';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSchoolsReport, type ReportRange } from '../api/reports';
import { botswanaToday } from '../dashboard/coupons-tab';
import { downloadCsv } from '../orders/csv';
import { ReportCharts } from './report-charts';
import {
  classColumns,
  countText,
  DEFAULT_SORT,
  findSchool,
  hasEstimate,
  hasPrepaid,
  moneyText,
  nextSort,
  openedRate,
  openedText,
  percentText,
  reportToCsv,
  schoolColumns,
  sortRows,
  statusText,
  withPrepaid,
  type Column,
  type ReportRow,
  type Sort,
} from './report-figures';
import { PRESETS, presetOf, presetRange, rangeText } from './report-range';

export function ReportsTab() {
  const today = botswanaToday();
  const [range, setRange] = useState<ReportRange>({ from: null, to: null });
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [schoolId, setSchoolId] = useState<number | null>(null);
  const report = useSchoolsReport(range);

  const exportCsv = (data: SchoolsReport) => {
    const file = M.csvFileName(range.from, range.to, today);
    downloadCsv(reportToCsv(data, sort), file);
    toast({ title: M.exportedTitle, description: M.exported(file), variant: 'success' });
  };

  return (
    <div className="stack reports-tab">
      <Card>
        <CardBody className="stack">
          <div className="row between">
            <h2>{M.title}</h2>
            {report.data && report.data.schools.length > 0 ? (
              <Button variant="outline" onClick={() => exportCsv(report.data)}>
                {M.exportCsv}
              </Button>
            ) : null}
          </div>
          <p className="muted">{M.intro}</p>
          <RangePicker range={range} today={today} onChange={setRange} />
        </CardBody>
      </Card>
      <Loaded query={report} failed={errorMessage(report.error, M.loadFailed)} loading={M.loading}>
        {(data) => {
          if (data.schools.length === 0) return <p className="muted">{M.emptySchools}</p>;
          const school = findSchool(data, schoolId);
          return (
            <>
              {school ? (
                <ClassesView school={school} sort={sort} onSort={setSort} onBack={() => setSchoolId(null)} />
              ) : (
                <SchoolsView report={data} sort={sort} onSort={setSort} onOpen={setSchoolId} />
              )}
              <p className="muted report-generated">{M.generatedAt(formatDate(data.generatedAt, 'dateTime'))}</p>
              <ReportCharts range={range} school={school ? { id: school.schoolId, name: school.name, classes: school.classes } : null} />
            </>
          );
        }}
      </Loaded>
    </div>
  );
}

function RangePicker({ range, today, onChange }: { range: ReportRange; today: string; onChange: (range: ReportRange) => void }) {
  const [from, setFrom] = useState(range.from ?? '');
  const [to, setTo] = useState(range.to ?? '');
  const reversed = from !== '' && to !== '' && from > to;
  const pressed = presetOf(range, today);
  const choose = (next: ReportRange) => {
    setFrom(next.from ?? '');
    setTo(next.to ?? '');
    onChange(next);
  };
  // A typed day applies as soon as both ends make a range (an empty end is open).
  const typed = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    if (nextFrom === '' || nextTo === '' || nextFrom <= nextTo) onChange({ from: nextFrom || null, to: nextTo || null });
  };
  return (
    <fieldset className="report-range">
      <legend>{M.rangeLegend}</legend>
      <div className="row">
        {PRESETS.map((preset) => (
          <Button key={preset.value} size="sm" variant={pressed === preset.value ? 'secondary' : 'outline'} aria-pressed={pressed === preset.value} onClick={() => choose(presetRange(preset.value, today))}>
            {preset.label}
          </Button>
        ))}
      </div>
      <div className="row report-range-days">
        <div className="field">
          <Label htmlFor="report-from">{M.from}</Label>
          <Input id="report-from" type="date" value={from} max={today} onChange={(event) => typed(event.target.value, to)} />
        </div>
        <div className="field">
          <Label htmlFor="report-to">{M.to}</Label>
          <Input id="report-to" type="date" value={to} onChange={(event) => typed(from, event.target.value)} aria-invalid={reversed || undefined} aria-describedby={reversed ? 'report-range-error' : undefined} />
        </div>
      </div>
      {reversed ? (
        <p id="report-range-error" className="field-error" role="alert">
          {M.rangeReversed}
        </p>
      ) : (
        <p className="muted" aria-live="polite">
          {rangeText(range)}
        </p>
      )}
    </fieldset>
  );
}

function SchoolsView({ report, sort, onSort, onOpen }: { report: SchoolsReport; sort: Sort; onSort: (sort: Sort) => void; onOpen: (schoolId: number) => void }) {
  const columns = withPrepaid(schoolColumns, [...report.schools, report.totals]);
  const rows = sortRows<SchoolReport>(report.schools, sort, columns);
  const sold = report.totals.paidOrders > 0 || report.totals.pendingOrders > 0;
  return (
    <Card>
      <CardBody className="stack">
        {!sold ? <p className="alert alert-info">{M.emptySales}</p> : null}
        <ReportTable
          label={M.schoolsTableLabel}
          columns={columns}
          rows={rows.map((school) => ({ key: school.schoolId, row: school, open: () => onOpen(school.schoolId) }))}
          totals={{ label: M.totalsRow, row: report.totals }}
          sort={sort}
          onSort={onSort}
        />
        <Notes rows={[...report.schools, report.totals]} />
        <TopItems title={M.topTitle} row={report.totals} />
      </CardBody>
    </Card>
  );
}

function ClassesView({ school, sort, onSort, onBack }: { school: SchoolReport; sort: Sort; onSort: (sort: Sort) => void; onBack: () => void }) {
  const columns = withPrepaid(classColumns, [school, ...school.classes]);
  const rows = sortRows<ClassReport>(school.classes, sort, columns);
  return (
    <Card>
      <CardBody className="stack">
        <div className="row between">
          <h3>{M.classesTableLabel(school.name)}</h3>
          <Button variant="outline" size="sm" onClick={onBack}>
            {M.backToSchools}
          </Button>
        </div>
        {rows.length === 0 ? (
          <p className="muted">{M.emptyClasses}</p>
        ) : (
          <ReportTable
            label={M.classesTableLabel(school.name)}
            columns={columns}
            rows={rows.map((album) => ({ key: album.albumId, row: album }))}
            totals={{ label: M.schoolTotalsRow, row: school }}
            sort={sort}
            onSort={onSort}
          />
        )}
        <Notes rows={[school, ...school.classes]} />
        <TopItems title={M.topTitleOf(school.name)} row={school} />
      </CardBody>
    </Card>
  );
}

interface TableRow {
  key: number;
  row: ReportRow;
  /** A school's row opens its classes. */
  open?: () => void;
}

function SortHeader({ column, sort, onSort }: { column: Column; sort: Sort; onSort: (sort: Sort) => void }) {
  const active = sort.key === column.key;
  return (
    <th scope="col" aria-sort={active ? sort.direction : undefined} className={column.numeric ? 'num' : undefined}>
      <button type="button" className="sort-button" onClick={() => onSort(nextSort(sort, column))}>
        {column.label}
        <span aria-hidden="true" className="sort-mark">
          {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** A figure and, under it, what it is out of. The first span is the figure the CSV also holds. */
function Figure({ value, sub }: { value: string; sub?: string | null }) {
  return (
    <>
      <span className="report-value">{value}</span>
      {sub ? <span className="report-sub">{sub}</span> : null}
    </>
  );
}

function FigureCells({ row, columns }: { row: ReportRow; columns: readonly Column[] }) {
  const cell = (column: Column) => {
    switch (column.key) {
      case 'status':
        return <Figure value={statusText(row.status)} />;
      case 'heads':
        return <Figure value={countText(row.heads)} />;
      case 'opened': {
        const rate = openedRate(row);
        return <Figure value={openedText(row)} sub={rate === null ? null : M.openedOf(percentText(rate))} />;
      }
      case 'orderRate':
        return <Figure value={percentText(row.orderRate)} sub={M.orderingOf(row.orderingChildren, row.heads)} />;
      case 'paidOrders':
        return <Figure value={String(row.paidOrders)} />;
      case 'revenue':
        return <Figure value={moneyText(row.revenueThebe)} />;
      case 'average':
        return <Figure value={moneyText(row.averageOrderThebe)} />;
      case 'perHead':
        return <Figure value={moneyText(row.revenuePerHeadThebe)} />;
      case 'print':
        return <Figure value={moneyText(row.printRevenueThebe)} />;
      case 'digital':
        return <Figure value={moneyText(row.digitalRevenueThebe)} />;
      case 'pending':
        return <Figure value={moneyText(row.pendingThebe)} sub={M.ordersCount(row.pendingOrders)} />;
      case 'refunds':
        return <Figure value={moneyText(row.refundThebe)} sub={M.ordersCount(row.refundOrders)} />;
      case 'prepaid':
        return <Figure value={moneyText(row.prepaidRevenueThebe)} />;
      case 'waiting':
        return <Figure value={String(row.packagesWaitingForPhotos)} sub={row.packagesWithoutPhoto > 0 ? M.withoutPhoto(row.packagesWithoutPhoto) : null} />;
      default:
        return null;
    }
  };
  return (
    <>
      {columns
        .filter((column) => column.key !== 'name')
        .map((column) => (
          <td key={column.key} data-column={column.key} className={column.numeric ? 'num' : undefined}>
            {cell(column)}
          </td>
        ))}
    </>
  );
}

function ReportTable({
  label,
  columns,
  rows,
  totals,
  sort,
  onSort,
}: {
  label: string;
  columns: readonly Column[];
  rows: readonly TableRow[];
  totals: { label: string; row: ReportFigures };
  sort: Sort;
  onSort: (sort: Sort) => void;
}) {
  return (
    <div className="table-wrap report-table-wrap">
      <table className="staff-table report-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <SortHeader key={column.key} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, row, open }) => (
            <tr key={key}>
              <th scope="row" data-column="name">
                {open ? (
                  <button type="button" className="link-button" onClick={open} aria-label={M.openSchool(row.name)}>
                    {row.name}
                  </button>
                ) : (
                  row.name
                )}
              </th>
              <FigureCells row={row} columns={columns} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="report-totals">
            <th scope="row" data-column="name">
              {totals.label}
            </th>
            <FigureCells row={{ ...totals.row, name: totals.label }} columns={columns} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** What "opened" and "children" mean, for the rows shown. */
function Notes({ rows }: { rows: readonly ReportFigures[] }) {
  return (
    <div className="report-notes muted">
      {hasEstimate(rows) ? <p>{M.openedEstimate}</p> : null}
      {rows.some((row) => row.openedBasis === 'children') ? <p>{M.openedChildren}</p> : null}
      <p>{M.headsHint}</p>
      {hasPrepaid(rows) ? <p>{M.prepaidNote}</p> : null}
    </div>
  );
}

function TopItems({ title, row }: { title: string; row: ReportFigures }) {
  return (
    <section className="stack-tight" aria-label={title}>
      <h3>{title}</h3>
      {row.topItems.length === 0 ? (
        <p className="muted">{M.topEmpty}</p>
      ) : (
        <ol className="report-top">
          {row.topItems.map((item) => (
            <li key={item.key}>
              {M.topLine(item.name, item.quantity, moneyText(item.revenueThebe))} <span className="muted">({M.itemKinds[item.kind] ?? item.kind})</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
