export function ClosingBanner() {
  return (
    <div className="alert alert-warn" role="status" style={{ marginBottom: 'var(--space-4)' }}>
      <strong>Print ordering has closed</strong>
      <p style={{ margin: 0 }}>The closing date for this school has passed. Only digital download options are now available for purchase.</p>
    </div>
  );
}
