/**
 * The published Flink figures of the nexmark project's SQL queries
 * (GUIDE_V1.md of the nexmark project, "Benchmark Results"): events per
 * second per core, over 100 million events generated at 10 million per
 * second (bids 92 %), on 3 machines of 8 cores, 8 task managers at
 * parallelism 8, RocksDB with incremental checkpoints every 3 minutes
 * (exactly-once), mini-batch (2 s, 50 000 rows) and split distinct
 * aggregation, Flink 1.13 to 2.0. Context for Weir's figures, not a
 * measurement on the same machine.
 */
import type { NexmarkSqlQueryName } from "./sql-queries.ts";

/** Throughput/Cores of each query in the nexmark project's result table (q6 is not in it). */
export const FLINK_EVENTS_PER_SECOND_PER_CORE: Readonly<Partial<Record<NexmarkSqlQueryName, number>>> = {
  q0: 155_020,
  q1: 157_940,
  q2: 175_210,
  q3: 152_120,
  q4: 34_330,
  q5: 22_140,
  q7: 12_330,
  q8: 146_140,
  q9: 14_240,
  q10: 57_810,
  q11: 39_700,
  q12: 75_670,
  q13: 130_730,
  q14: 161_230,
  q15: 72_420,
  q16: 18_650,
  q17: 116_800,
  q18: 53_700,
  q19: 44_040,
  q20: 18_980,
  q21: 98_490,
  q22: 129_960,
};
