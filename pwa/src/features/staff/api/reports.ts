/** Season reports for the dashboard's Reports tab (docs/reports.md): the table and the sales over time. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportPeriod, SalesReport, SchoolsReport } from '@contract/reports';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export interface ReportRange {
  /** YYYY-MM-DD or null (open end). */
  from: string | null;
  to: string | null;
}

export interface SalesQuery extends ReportRange {
  schoolId: number | null;
  albumId: number | null;
  by: ReportPeriod;
}

/** `?from=…&to=…` with the unset ones left out. */
export function reportSearch(values: Record<string, string | number | null>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const schoolsReportQuery = (range: ReportRange) =>
  queryOptions({
    queryKey: staffKeys.schoolsReport(range),
    queryFn: ({ signal }) => apiRequest<SchoolsReport>(`/api/reports/schools${reportSearch({ from: range.from, to: range.to })}`, { auth: 'staff', signal }),
  });

export const salesReportQuery = (query: SalesQuery) =>
  queryOptions({
    queryKey: staffKeys.salesReport(query),
    queryFn: ({ signal }) =>
      apiRequest<SalesReport>(`/api/reports/sales${reportSearch({ schoolId: query.schoolId, albumId: query.albumId, from: query.from, to: query.to, by: query.by })}`, {
        auth: 'staff',
        signal,
      }),
  });

/** The table keeps showing the last range's figures while a new range loads, so it does not jump. */
export const useSchoolsReport = (range: ReportRange) => useQuery({ ...schoolsReportQuery(range), placeholderData: keepPreviousData });

export const useSalesReport = (query: SalesQuery) => useQuery({ ...salesReportQuery(query), placeholderData: keepPreviousData });
