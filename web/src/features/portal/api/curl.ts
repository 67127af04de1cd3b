// The copyable curl example of an API: a POST to the gateway with the key header and the
// API's required fields as a JSON body, placeholders for the values.

/** Quotes `s` for a POSIX shell: inside single quotes, a quote is closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlExample(origin: string, service: string, fields: string[], key = 'YOUR_API_KEY'): string {
  const body = Object.fromEntries(fields.map((f) => [f, `<${f}>`]));
  const url = `${origin.replace(/\/+$/, '')}/api/v1/verify/${encodeURIComponent(service)}`;
  return [
    `curl -X POST ${shellQuote(url)}`,
    `  -H ${shellQuote(`X-Api-Key: ${key}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}
