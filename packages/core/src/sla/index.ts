// SLA reports: uptime and error budget of a monitor or a status page over a month or a range, maintenance excluded.
export {
  MAX_REPORT_MONTHS,
  type MonitorSla,
  monitorSlaReport,
  pageSlaReport,
  type ReportRange,
  reportRange,
  type SlaDowntime,
  type SlaReport,
  slaCsv,
  slaDowntime,
  slaTarget,
} from "./report";
