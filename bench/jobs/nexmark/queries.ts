/** The Nexmark queries of the bench by name. */
import type { NexmarkQuery, NexmarkQueryName } from "./nexmark-query.ts";
import { q0 } from "./q0-passthrough.ts";
import { q1 } from "./q1-currency.ts";
import { q2 } from "./q2-selection.ts";
import { q3 } from "./q3-incremental-join.ts";
import { q5 } from "./q5-hot-items.ts";
import { q7 } from "./q7-highest-bid.ts";
import { q8 } from "./q8-window-join.ts";

export const QUERIES: Readonly<Record<NexmarkQueryName, NexmarkQuery<unknown>>> = {
  q0: q0 as NexmarkQuery<unknown>,
  q1: q1 as NexmarkQuery<unknown>,
  q2: q2 as NexmarkQuery<unknown>,
  q3: q3 as NexmarkQuery<unknown>,
  q5: q5 as NexmarkQuery<unknown>,
  q7: q7 as NexmarkQuery<unknown>,
  q8: q8 as NexmarkQuery<unknown>,
};
