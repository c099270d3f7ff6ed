// The instance admin's answers over /v1/admin (left out of the OpenAPI document): what a client reads of them,
// the rest passing through untouched.
import { z } from "zod";
import { WorkspaceFields } from "./workspace";

const Member = z.looseObject({ email: z.string().nullable(), role: z.string(), disabled: z.boolean() });
export const InstanceWorkspace = WorkspaceFields.extend({
  state: z.string(),
  monitors: z.number(),
  members: z.array(Member),
  limits: z.record(z.string(), z.unknown()),
}).loose();
export const InstanceWorkspaceList = z.object({ workspaces: z.array(InstanceWorkspace) });
/** PUT /v1/admin/workspaces/:id/limits */
export const InstanceLimitsOutput = z.object({ id: z.number(), limits: z.record(z.string(), z.unknown()) });
export const InstanceUserList = z.object({
  users: z.array(z.looseObject({ id: z.string(), email: z.string().nullable(), disabledAt: z.number().nullable() })),
});
/** POST /v1/admin/workspaces */
export const InstanceWorkspaceCreated = z.looseObject({
  workspace: InstanceWorkspace,
  email: z.string(),
  joined: z.boolean(),
  invitationToken: z.string().nullable(),
});
/** POST /v1/admin/users/:id/disable and …/enable */
export const InstanceUser = z.looseObject({ id: z.string(), email: z.string().nullable(), disabled: z.boolean() });
