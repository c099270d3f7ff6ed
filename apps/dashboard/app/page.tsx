import { limitsOf, listWorkspaces } from "@vigil/core";
import { getDb } from "../lib/db";

export const dynamic = "force-dynamic";

export default async function Home() {
  const workspaces = await listWorkspaces(getDb());
  return (
    <main>
      <h1>Vigil</h1>
      <h2>Workspaces</h2>
      {workspaces.length === 0 ? (
        <p>No workspace yet. Sign up to create one.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th align="left">Name</th>
              <th align="left">Plan</th>
              <th align="left">Monitors allowed</th>
              <th align="left">Private locations</th>
            </tr>
          </thead>
          <tbody>
            {workspaces.map((ws) => {
              const { limits, expired } = limitsOf(ws);
              return (
                <tr key={ws.id}>
                  <td>{ws.name}</td>
                  <td>
                    {ws.plan ?? "none"}
                    {expired ? " (ended)" : ""}
                  </td>
                  <td>{limits.monitors}</td>
                  <td>{limits["private-locations"] ? "yes" : "no"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </main>
  );
}
