// Runs every server audit of graphql-http (the GraphQL over HTTP spec's
// conformance suite) against a running GraphQL endpoint.
//
//   npm ci && node audit.mjs http://127.0.0.1:8080/graphql
//
// Prints one line per audit, then `audit: N passed, M failed` counting the
// MUST and SHOULD audits. Exits 1 when a MUST or SHOULD audit is not ok; MAY
// audits are printed only.
import { serverAudits } from 'graphql-http';

const url = process.argv[2];
if (!url || process.argv.length > 3) {
  console.error('usage: node audit.mjs <url>');
  process.exit(2);
}
try {
  new URL(url);
} catch {
  console.error(`audit: not a URL: ${url}`);
  process.exit(2);
}

async function describe(result) {
  if (result.status === 'ok' || !result.response) return result.reason ?? '';
  let body = '';
  try {
    body = await result.response.clone().text();
  } catch {
    // the audit may have read the body already
  }
  const type = result.response.headers.get('content-type') ?? '';
  return `${result.reason} [status ${result.response.status}, content-type ${type}${body ? `, body ${body.slice(0, 300)}` : ''}]`;
}

let passed = 0;
let failed = 0;
for (const { id, name, fn } of serverAudits({ url })) {
  // One at a time: easier on the server and the output keeps the suite's order.
  let result;
  try {
    result = await fn();
  } catch (err) {
    // An audit throws only when it could not run, e.g. the server is down.
    const cause = err?.cause?.message ?? err?.message ?? String(err);
    result = { id, name, status: 'error', reason: `could not run: ${cause}` };
  }
  const level = result.name.split(' ', 1)[0]; // MUST, SHOULD or MAY
  const counted = level === 'MUST' || level === 'SHOULD';
  if (counted) {
    if (result.status === 'ok') passed++;
    else failed++;
  }
  const detail = result.status === 'ok' ? '' : ` - ${await describe(result)}`;
  console.log(`${level.padEnd(6)} ${result.status.padEnd(6)} ${result.id} ${result.name}${detail}`);
}
console.log(`audit: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
