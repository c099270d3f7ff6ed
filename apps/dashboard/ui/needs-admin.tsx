import { ShieldAlert } from "lucide-react";
import { Card, Empty } from "./ui";

/** What a member sees on a page only owners and admins may use. */
export function NeedsAdmin({ what, role = "member" }: { what: string; role?: string }) {
  return (
    <Card>
      <div data-testid="needs-admin">
        <Empty icon={<ShieldAlert className="size-5" aria-hidden />} title="Owners and admins only">
          Your role in this workspace is <strong>{role}</strong>, which cannot manage {what}. Ask an owner or admin to change it for you or
          to make you an admin.
        </Empty>
      </div>
    </Card>
  );
}
