// The one unit of measure: slot verdicts (quorum of locations) over measured time; every figure reads it.
export { measuredDays } from "./days";
export {
  addTally,
  COVERING,
  countedMs,
  countedSlots,
  emptyTally,
  type MeasureBucket,
  type Measurement,
  type MeasureOptions,
  measure,
  measuredUptime,
  type Tally,
  type TimeBudget,
  timeBudget,
  uptimeOf,
} from "./measure";
