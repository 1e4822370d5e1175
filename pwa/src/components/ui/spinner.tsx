/** A spinner with a text alternative; `label` is also shown when `showLabel`. */
export function Spinner({ label = 'Loading', showLabel = false }: { label?: string; showLabel?: boolean }) {
  return (
    <span className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      {showLabel ? <span>{label}</span> : <span className="sr-only">{label}</span>}
    </span>
  );
}

export function PageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} showLabel />
    </div>
  );
}
