/**
 * A window aggregation of a window aggregation's output (`GROUP BY window_start, window_end` again, as
 * published Nexmark q5 takes the maximum count per window) fires each window where the aggregation below
 * fired it, at `window_end - 1`, as Flink does: a window join of both levels (q5's join back) then holds
 * both rows of the window when it fires, even when a watermark lands exactly on `window_end - 1`.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { collectSink } from "../../src/index.ts";
import { Schema } from "../../src/table/api/schema.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { WatermarkStrategy } from "../../src/time/watermark-strategy.ts";
import type { WatermarkOutput } from "../../src/time/watermark-generator.ts";

interface Click {
  k: string;
  ts: number;
}

/** Per 1 s window, the keys with the most rows: the count joined back with its maximum, as in Nexmark q5. */
const HOT_KEYS = `
SELECT A.k, A.num, A.window_end FROM (
  SELECT k, COUNT(*) AS num, window_start, window_end FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(rt), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end
) A JOIN (
  SELECT MAX(num) AS maxn, window_start, window_end FROM (
    SELECT k, COUNT(*) AS num, window_start, window_end FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(rt), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end
  ) GROUP BY window_start, window_end
) M ON A.window_start = M.window_start AND A.window_end = M.window_end AND A.num >= M.maxn`;

describe("a cascaded window aggregation", () => {
  it("fires with the window below it: a watermark at window_end - 1 loses no window of the join back", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const tEnv = StreamTableEnvironment.create(env);
    // a watermark after each row at its time: the row at 999 brings the watermark to window_end - 1 of [0, 1000)
    const clicks: Click[] = [{ k: "a", ts: 100 }, { k: "a", ts: 500 }, { k: "b", ts: 600 }, { k: "b", ts: 999 }, { k: "a", ts: 1500 }, { k: "a", ts: 3500 }];
    const perRow = WatermarkStrategy.forGenerator<Click>(() => ({
      onEvent: (c: Click, _t: number, out: WatermarkOutput) => out.emitWatermark(c.ts),
      onPeriodicEmit: () => {},
    })).withTimestampAssigner((c) => c.ts);
    const stream = env.fromCollection<Click>(clicks).assignTimestampsAndWatermarks(perRow);
    tEnv.createTemporaryView("t", stream, Schema.newBuilder().column("k", "STRING").columnByMetadata("rt", "TIMESTAMP_LTZ(3)").watermark("rt", "SOURCE_WATERMARK()").build());
    tEnv.toDataStream(tEnv.sqlQuery(HOT_KEYS)).sinkTo(collectSink("out"));
    const result = await env.execute("window-cascade");
    const rows = result.getCollected<Row>("out").map((r) => `${r.fields[0]} ${r.fields[1]} ${r.fields[2]}`);
    expect(rows.sort()).toEqual(["a 1 2000", "a 1 4000", "a 2 1000", "b 2 1000"]);
  });
});
