import { limitsOf } from "@vigil/core";
import { deleteStatusPageAction } from "../../../../../features/status-pages/actions";
import { DomainVerificationPanel } from "../../../../../features/status-pages/domain-verification";
import { PageSettingsForm } from "../../../../../features/status-pages/page-forms";
import { editorPage } from "../../../../../features/status-pages/status-page";
import { getEnv } from "../../../../../lib/env";
import { ConfirmAction } from "../../../../../ui/confirm";
import { Card, CardHeader, CardSection } from "../../../../../ui/ui";

export const metadata = { title: "Status page settings" };

export default async function Settings({ params }: { params: Promise<{ ws: string; id: string }> }) {
  const { ws, id } = await params;
  const { m, page } = await editorPage(ws, id);
  const limits = limitsOf(m.workspace).limits;
  return (
    <div className="grid gap-6">
      <CardSection title="Settings" description="What visitors see, and who may see it.">
        <PageSettingsForm
          workspaceId={m.workspace.id}
          page={page}
          allowed={{
            customDomain: !!limits["custom-domain"],
            password: !!limits["password-protection"],
            whiteLabel: !!limits["white-label"],
          }}
        />
      </CardSection>
      {limits["custom-domain"] || page.customDomain ? (
        <Card>
          <CardHeader title="Custom domain" description="A domain shows this page only after you prove it is yours." />
          <DomainVerificationPanel
            workspaceId={m.workspace.id}
            pageId={page.id}
            domain={page.customDomain}
            verification={page.domainVerification}
            statusHost={new URL(getEnv().STATUS_PAGE_URL).hostname}
          />
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Delete this page"
          description="Its components, reports, maintenance windows and subscribers go with it. Monitors are not touched."
          action={
            <ConfirmAction
              small={false}
              action={deleteStatusPageAction}
              fields={{ workspaceId: String(m.workspace.id), pageId: String(page.id) }}
              label="Delete page"
              title={`Delete “${page.title}”?`}
              description={`The public page /${page.slug} stops answering at once. This cannot be undone.`}
              confirm="Delete page"
            />
          }
        />
      </Card>
    </div>
  );
}
