import { Coming } from "../../../../components/coming";
import { PageHeader } from "../../../../components/ui";
import { memberOf } from "../../../../lib/session";

export const metadata = { title: "Notifications" };

export default async function Notifications({ params }: { params: Promise<{ ws: string }> }) {
  await memberOf((await params).ws);
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Where alerts go when a monitor fails or recovers: Slack, email, PagerDuty, webhooks and more."
      />
      <Coming
        what="notification channels"
        commands={
          'curl -X POST http://127.0.0.1:3001/v1/channels \\\n  -H "Authorization: Bearer $VIGIL_API_TOKEN" -H \'Content-Type: application/json\' \\\n  -d \'{"name": "ops", "kind": "webhook", "config": {"url": "https://example.com/hook"}}\''
        }
      >
        Channels can be created today through the REST API with an API key, and attached to monitors in their YAML (<code>channels:</code>).
      </Coming>
    </>
  );
}
