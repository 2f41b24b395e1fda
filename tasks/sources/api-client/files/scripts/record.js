// Re-records tests/recordings/get-issue.json and list-issues.json from the live sandbox project. Needs
// LINDEN_API_TOKEN; strips the Authorization header before writing. Review the diff before committing.
import { writeFile } from "node:fs/promises";
import { createClient, createFetchTransport } from "../src/index.js";

const token = process.env.LINDEN_API_TOKEN;
if (!token) {
  console.error("LINDEN_API_TOKEN is not set: recording needs a sandbox token (see .env.example)");
  process.exit(1);
}
const fetchTransport = createFetchTransport();
const interactions = [];
const transport = {
  async send(request) {
    const response = await fetchTransport.send(request);
    interactions.push({ request: { method: request.method, url: request.url }, response });
    return response;
  },
};
const client = createClient({ token, transport, baseUrl: process.env.LINDEN_API_URL ?? "https://sandbox.api.linden.example/v3" });
await client.getIssue("sandbox", 1);
const recorded = `${new Date().toISOString().slice(0, 10)} against the sandbox project, tokens removed`;
await writeFile("tests/recordings/get-issue.json", `${JSON.stringify({ recorded, interactions }, null, 2)}\n`);
console.log(`Recorded ${interactions.length} interactions.`);
