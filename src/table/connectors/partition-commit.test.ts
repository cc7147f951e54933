import { describe, expect, it } from "vitest";
import { partitionCommitCondition, partitionTime, type PartitionCommitTrigger } from "./partition-commit.ts";
import { escapePathName, partitionPath, partitionValuesOf } from "./partition-path.ts";

const trigger = (o: Partial<PartitionCommitTrigger>): PartitionCommitTrigger => ({
  kind: "partition-time",
  delayMs: 0,
  watermarkTimeZone: "UTC",
  keys: ["dt", "hr"],
  table: "t",
  ...o,
});

describe("partition paths and partition commit", () => {
  it("escapes and reads back partition values as Flink names them", () => {
    const path = partitionPath(["dt", "k"], ["2020-05-01 10:00", null], "__DEFAULT_PARTITION__");
    expect(path).toBe("dt=2020-05-01 10%3A00/k=__DEFAULT_PARTITION__");
    expect(escapePathName('a/b=c%d#e"f')).toBe("a%2Fb%3Dc%25d%23e%22f");
    expect(partitionValuesOf(`${path}/part-0`)).toEqual(new Map([["dt", "2020-05-01 10:00"], ["k", "__DEFAULT_PARTITION__"]]));
  });

  it("extracts a partition's time with the pattern, the formatter and the watermark time zone", () => {
    expect(partitionTime("dt=2020-05-01/hr=09", trigger({ timestampPattern: "$dt $hr:00:00" }))).toBe(Date.UTC(2020, 4, 1, 9));
    expect(partitionTime("dt=2020-05-01/hr=09", trigger({}))).toBe(Date.UTC(2020, 4, 1));
    expect(partitionTime("dt=20200501/hr=09", trigger({ timestampPattern: "$dt $hr", timestampFormatter: "yyyyMMdd HH" }))).toBe(Date.UTC(2020, 4, 1, 9));
    expect(partitionTime("dt=2020-05-01/hr=09", trigger({ timestampPattern: "$dt $hr:00:00", watermarkTimeZone: "Asia/Shanghai" }))).toBe(Date.UTC(2020, 4, 1, 1));
    expect(() => partitionTime("dt=May/hr=09", trigger({ timestampPattern: "$dt $hr:00:00" }))).toThrow(
      "Table 't': cannot extract the time of partition 'dt=May/hr=09': 'May 09:00:00' is not a timestamp 'yyyy-MM-dd HH:mm:ss' or a date 'yyyy-MM-dd'",
    );
  });

  it("commits on partition time once the watermark passes it plus the delay; on process time after creation plus the delay", () => {
    const hourly = partitionCommitCondition(trigger({ timestampPattern: "$dt $hr:00:00", delayMs: 3_600_000 }));
    const end = Date.UTC(2020, 4, 1, 10);
    expect([hourly("dt=2020-05-01/hr=09", 0, end - 1, 0), hourly("dt=2020-05-01/hr=09", 0, end, 0)]).toEqual([false, true]);
    const processing = partitionCommitCondition(trigger({ kind: "process-time", delayMs: 1_000 }));
    expect([processing("dt=x/hr=y", 5_000, 0, 5_999), processing("dt=x/hr=y", 5_000, 0, 6_000)]).toEqual([false, true]);
  });
});
