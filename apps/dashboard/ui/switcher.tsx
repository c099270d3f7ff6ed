"use client";
import { Check, ChevronsUpDown, LogOut, ShieldCheck } from "lucide-react";
import Link from "next/link";
import { DropdownMenu } from "radix-ui";
import { signOutAction } from "../features/signin/actions";

const item = "flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-zinc-100";

export function WorkspaceSwitcher({
  current,
  workspaces,
  email,
}: {
  current: number;
  workspaces: { id: number; name: string; role: string }[];
  email: string;
}) {
  const active = workspaces.find((w) => w.id === current);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="flex w-full min-w-0 items-center gap-2 rounded-lg border border-zinc-200 bg-white px-2.5 py-1.5 text-left shadow-xs hover:bg-zinc-50"
        aria-label="Switch workspace"
      >
        <span className="flex size-6 shrink-0 items-center justify-center rounded-md bg-indigo-600 text-xs font-semibold text-white uppercase">
          {(active?.name ?? "W").slice(0, 1)}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium">{active?.name}</span>
          <span className="block truncate text-xs text-zinc-500">{active?.role}</span>
        </span>
        <ChevronsUpDown className="size-4 shrink-0 text-zinc-400" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 min-w-64 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs text-zinc-500">Workspaces</DropdownMenu.Label>
          {workspaces.map((w) => (
            <DropdownMenu.Item key={w.id} asChild className={item}>
              <Link href={`/w/${w.id}`}>
                <span className="flex-1 truncate">{w.name}</span>
                <span className="text-xs text-zinc-400">{w.role}</span>
                {w.id === current ? <Check className="size-4 text-indigo-600" aria-label="current" /> : <span className="size-4" />}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-zinc-100" />
          <DropdownMenu.Label className="truncate px-2 py-1.5 text-xs text-zinc-500">Signed in as {email}</DropdownMenu.Label>
          <DropdownMenu.Item asChild className={item}>
            <Link href="/account">
              <ShieldCheck className="size-4" aria-hidden />
              Account and second factor
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={item}
            onSelect={() => {
              void signOutAction();
            }}
          >
            <LogOut className="size-4" aria-hidden />
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
