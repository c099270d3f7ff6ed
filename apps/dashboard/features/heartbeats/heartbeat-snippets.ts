// Ready-to-paste ways to call a heartbeat's ping URL. Each retries, so a short server restart loses no ping.

export interface PingSnippet {
  title: string;
  value: string;
}

export function pingSnippets(pingUrl: string, key: string | null, cron = "*/5 * * * *"): PingSnippet[] {
  const curl = (suffix = "") => `curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}${suffix}`;
  const name = key ?? "my-job";
  return [
    { title: "curl (at the end of a cron line)", value: `${cron} /usr/local/bin/${name}.sh && ${curl()}` },
    {
      title: "curl with start, output and exit code",
      value: [
        curl("/start"),
        `out=$(/usr/local/bin/${name}.sh 2>&1); code=$?`,
        `printf '%s' "$out" | tail -c 10000 | curl -fsS -m 10 --retry 5 -o /dev/null --data-binary @- ${pingUrl}/$code`,
      ].join("\n"),
    },
    { title: "wget", value: `wget -q -T 10 -t 5 -O /dev/null ${pingUrl}` },
    {
      title: "PowerShell",
      value: `Invoke-RestMethod -Uri "${pingUrl}" -TimeoutSec 10 -MaximumRetryCount 5 -RetryIntervalSec 2`,
    },
    {
      title: "vigil CLI (start, run, exit code and output tail)",
      value: `vigil run ${name} -- /usr/local/bin/${name}.sh`,
    },
    {
      title: `systemd (${name}.service, run by a timer)`,
      value: [
        "[Service]",
        "Type=oneshot",
        `ExecStartPre=-${curl("/start")}`,
        `ExecStart=/usr/local/bin/${name}.sh`,
        // $$ is systemd's escape for a literal $: the shell reads how the run ended.
        `ExecStopPost=/bin/sh -c 'if [ "$$SERVICE_RESULT" = success ]; then s=; else s=/fail; fi; ${curl("$$s")}'`,
      ].join("\n"),
    },
    {
      title: "Kubernetes CronJob",
      value: [
        "apiVersion: batch/v1",
        "kind: CronJob",
        `metadata: { name: ${name} }`,
        "spec:",
        `  schedule: "${cron}"`,
        "  jobTemplate:",
        "    spec:",
        "      template:",
        "        spec:",
        "          restartPolicy: Never",
        "          containers:",
        "            - name: job",
        "              image: curlimages/curl",
        '              command: ["/bin/sh", "-c"]',
        "              args:",
        "                - |",
        `                  ${curl("/start")}`,
        "                  your-command; code=$?",
        `                  ${curl("/$code")}`,
      ].join("\n"),
    },
  ];
}
