// /batch on a partner's site: in the menu only while the partner's Batch Processing is on
// (portalNav). The batch verification page (upload, progress, result) takes this place.
export default function PortalBatchPage() {
  return (
    <section className="page">
      <h1 className="page-title">Batch</h1>
      <div className="empty-state">
        <p>Batch verification is not available here yet.</p>
      </div>
    </section>
  );
}
