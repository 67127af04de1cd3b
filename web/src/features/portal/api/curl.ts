// The copyable code samples of an API (curl, Python, JavaScript): a POST to the gateway on the
// user's own site with the key header and the API's required fields as a JSON body,
// placeholders for the values.

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

function gatewayUrl(origin: string, service: string): string {
  return `${origin.replace(/\/+$/, '')}/api/v1/verify/${encodeURIComponent(service)}`;
}

function placeholders(fields: string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f, `<${f}>`]));
}

/** Python with the standard library only (urllib), so it runs without installing anything. */
export function pythonExample(origin: string, service: string, fields: string[], key = 'YOUR_API_KEY'): string {
  return [
    'import json',
    'import urllib.request',
    '',
    'request = urllib.request.Request(',
    `    ${JSON.stringify(gatewayUrl(origin, service))},`,
    `    data=json.dumps(${JSON.stringify(placeholders(fields))}).encode(),`,
    `    headers={"X-Api-Key": ${JSON.stringify(key)}, "Content-Type": "application/json"},`,
    '    method="POST",',
    ')',
    'with urllib.request.urlopen(request) as response:',
    '    print(response.headers["X-Transaction-Id"], json.load(response))',
  ].join('\n');
}

/** JavaScript with fetch (browsers and Node.js 18 or later). */
export function javascriptExample(origin: string, service: string, fields: string[], key = 'YOUR_API_KEY'): string {
  return [
    `const response = await fetch(${JSON.stringify(gatewayUrl(origin, service))}, {`,
    "  method: 'POST',",
    `  headers: { 'X-Api-Key': ${JSON.stringify(key)}, 'Content-Type': 'application/json' },`,
    `  body: JSON.stringify(${JSON.stringify(placeholders(fields))}),`,
    '});',
    "console.log(response.status, response.headers.get('X-Transaction-Id'), await response.json());",
  ].join('\n');
}
