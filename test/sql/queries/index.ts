/** Every query of the "continuous = batch" harness, grouped by kind. */
import type { HarnessQuery } from "../../support/sql-harness.ts";
import { AGGREGATES } from "./aggregates.ts";
import { CHANGELOG_INPUT } from "./changelog-input.ts";
import { JOINS } from "./joins.ts";
import { OVER } from "./over.ts";
import { RANKING } from "./ranking.ts";
import { SET_OPERATIONS } from "./set-operations.ts";
import { STATELESS } from "./stateless.ts";
import { USER_FUNCTIONS } from "./user-functions.ts";
import { WINDOWS } from "./windows.ts";

export const QUERY_KINDS: Readonly<Record<string, readonly HarnessQuery[]>> = {
  stateless: STATELESS,
  aggregates: AGGREGATES,
  "set operations": SET_OPERATIONS,
  joins: JOINS,
  ranking: RANKING,
  windows: WINDOWS,
  over: OVER,
  "changelog input": CHANGELOG_INPUT,
  "user-defined functions": USER_FUNCTIONS,
};

export const ALL_QUERIES: readonly HarnessQuery[] = Object.values(QUERY_KINDS).flat();
