import { curlExample, javascriptExample, pythonExample, shellQuote } from './curl';

describe('curlExample', () => {
  it('posts the required fields as JSON with the key header, to the site it is shown on', () => {
    expect(curlExample('https://demo.kyc.example/', 'pan_verification', ['pan_number', 'name'])).toBe(
      [
        "curl -X POST 'https://demo.kyc.example/api/v1/verify/pan_verification' \\",
        "  -H 'X-Api-Key: YOUR_API_KEY' \\",
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"pan_number":"<pan_number>","name":"<name>"}'`,
      ].join('\n'),
    );
  });

  it('sends an empty object when nothing is required, and quotes what a shell would read', () => {
    expect(curlExample('http://demo.localhost:8080', 'ping', [])).toContain(`-d '{}'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(curlExample('http://x', "a'b", [])).toContain(`'http://x/api/v1/verify/a'\\''b'`);
  });
});

describe('pythonExample and javascriptExample', () => {
  it('post the same body with the key header to the same address', () => {
    const py = pythonExample('https://demo.kyc.example/', 'pan_verification', ['pan_number']);
    expect(py).toContain('"https://demo.kyc.example/api/v1/verify/pan_verification"');
    expect(py).toContain('json.dumps({"pan_number":"<pan_number>"})');
    expect(py).toContain('"X-Api-Key": "YOUR_API_KEY"');
    const js = javascriptExample('https://demo.kyc.example', 'pan_verification', ['pan_number']);
    expect(js).toContain('fetch("https://demo.kyc.example/api/v1/verify/pan_verification"');
    expect(js).toContain('JSON.stringify({"pan_number":"<pan_number>"})');
    expect(js).toContain("'X-Api-Key': \"YOUR_API_KEY\"");
  });
});
