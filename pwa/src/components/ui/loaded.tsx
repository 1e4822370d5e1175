/** A query's three looks: its data, an alert when it failed, a spinner while it loads. */
import type { ReactNode } from 'react';
import { PageSpinner } from './spinner';

export function Loaded<T>({
  query,
  failed,
  loading,
  children,
}: {
  query: { data: T | undefined; isError: boolean };
  /** The alert's words when the query failed. */
  failed: string;
  /** The spinner's label. */
  loading: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError)
    return (
      <p className="alert alert-danger" role="alert">
        {failed}
      </p>
    );
  return <PageSpinner label={loading} />;
}
