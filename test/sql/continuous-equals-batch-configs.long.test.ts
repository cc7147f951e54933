/**
 * Continuous = batch in the other configurations (`npm run test:long`; see
 * test/support/continuous-equals-batch.ts): in-process at parallelism 2 with
 * one failure, and over a random prefix of the input (the input seen so far at
 * some moment). Reproduce with `WEIR_SEED=<seed>`.
 */
import { CONFIGS, describeContinuousEqualsBatch } from "../support/continuous-equals-batch.ts";

describeContinuousEqualsBatch(CONFIGS.inProcess);
describeContinuousEqualsBatch(CONFIGS.prefix);
