/**
 * The only measurement code every page runs eagerly (issue 24): with the visitor's stored "Allow cookies"
 * answer it loads the page beacon; declined, unanswered or blocked storage loads and sends nothing.
 * The key and value are SPEC §3's consent entry (CONSENT_KEY and CONSENT_VALUE of src/lib/consent.ts), written
 * out here so the eager bundle imports nothing: a shared import would become a chunk of its own and a request.
 */
try {
  if (localStorage.getItem('cookies') === 'true') void import('./beacon.ts');
} catch {
  // Storage blocked: no consent can be stored, so nothing is measured.
}
