// `pnpm analytics:deploy`: creates or migrates the ClickHouse datasources (the setup order's "deploy analytics
// datasources" step). Needs ANALYTICS_URL, and ANALYTICS_API_KEY for a user allowed to create tables.
import { env, loadEnv } from "@vigil/config";
import { deployAnalytics } from "./deploy";
import { AnalyticsEnv } from "./env";
import { displayHost, toAnalyticsError } from "./errors";
import { createAnalyticsClient } from "./factory";

const config = loadEnv(AnalyticsEnv.extend({ ANALYTICS_URL: env.url() }), "analytics:deploy");
const client = createAnalyticsClient(config);
try {
  const { applied, alreadyApplied } = await deployAnalytics(client, config.ANALYTICS_DATABASE);
  const where = `${displayHost(config.ANALYTICS_URL)}/${config.ANALYTICS_DATABASE}`;
  if (applied.length === 0) process.stdout.write(`analytics: ${where} is up to date (${alreadyApplied.length} migrations)\n`);
  for (const name of applied) process.stdout.write(`analytics: applied ${name} on ${where}\n`);
} catch (err) {
  const e = toAnalyticsError(err, displayHost(config.ANALYTICS_URL));
  process.stderr.write(`analytics:deploy failed: ${e.message}\n`);
  process.exitCode = 1;
} finally {
  await client.close();
}
