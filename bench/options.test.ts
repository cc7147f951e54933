import { describe, expect, it } from "vitest";
import { BENCH_SECTIONS, parseBenchOptions } from "./options.ts";

describe("parseBenchOptions", () => {
  it("runs every section, sized from the warm-up, without arguments", () => {
    const o = parseBenchOptions([]);
    expect([...o.sections]).toEqual([...BENCH_SECTIONS]);
    expect(o.records).toBeUndefined();
    expect(o.keys).toEqual([10_000, 1_000_000]);
  });

  it("runs only the sections named by --only", () => {
    expect([...parseBenchOptions(["--only", "object-state"]).sections]).toEqual(["object-state"]);
    expect([...parseBenchOptions(["--only", "file,recovery", "--records", "5"]).sections]).toEqual(["file", "recovery"]);
  });

  it("refuses an unknown or missing section, naming the known ones", () => {
    expect(() => parseBenchOptions(["--only", "object-state,nope"])).toThrow(/--only takes a comma-separated list of startup, keyed-count, keyed-count-tcp, cluster, file, event-time, object-state, async-io, nexmark, nexmark-sql, recovery, state, kafka, postgres; got 'object-state,nope'/);
    expect(() => parseBenchOptions(["--only"])).toThrow(RangeError);
  });

  it("fixes the keyed-count records with --records", () => {
    expect(parseBenchOptions(["--records", "20000000"]).records).toBe(20_000_000);
    expect(() => parseBenchOptions(["--records", "0"])).toThrow(/--records must be a positive integer, got '0'/);
  });

  it("fixes the events of the Nexmark SQL runs with --nexmark-sql-events", () => {
    expect(parseBenchOptions([]).nexmarkSqlEvents).toBeUndefined();
    expect(parseBenchOptions(["--only", "nexmark-sql", "--nexmark-sql-events", "20000"]).nexmarkSqlEvents).toBe(20_000);
    expect(() => parseBenchOptions(["--nexmark-sql-events", "x"])).toThrow(/--nexmark-sql-events must be a positive integer, got 'x'/);
  });

  it("fixes the events of the DataStream Nexmark runs and their SQL twins with --nexmark-events", () => {
    expect(parseBenchOptions([]).nexmarkEvents).toBeUndefined();
    expect(parseBenchOptions(["--only", "nexmark", "--nexmark-events", "100000"]).nexmarkEvents).toBe(100_000);
    expect(() => parseBenchOptions(["--nexmark-events", "-1"])).toThrow(/--nexmark-events must be a positive integer, got '-1'/);
  });

  it("runs only the Nexmark queries named by --nexmark-queries, in the bench's order, and refuses an unknown one", () => {
    expect(parseBenchOptions([]).nexmarkQueries).toBeUndefined();
    expect(parseBenchOptions(["--only", "nexmark", "--nexmark-queries", "q7,q5,q7"]).nexmarkQueries).toEqual(["q5", "q7"]);
    expect(() => parseBenchOptions(["--nexmark-queries", "q5,q23"])).toThrow(/--nexmark-queries takes a comma-separated list of q0, q1, .*, q22; got 'q5,q23'/);
    expect(() => parseBenchOptions(["--nexmark-queries"])).toThrow(RangeError);
  });

  it("sets the keyed-count key counts with --keys", () => {
    expect(parseBenchOptions(["--keys", "1000000"]).keys).toEqual([1_000_000]);
    expect(parseBenchOptions(["--keys", "5,7"]).keys).toEqual([5, 7]);
    expect(() => parseBenchOptions(["--keys", "5,x"])).toThrow(/--keys takes a comma-separated list of distinct positive integers, got '5,x'/);
    expect(() => parseBenchOptions(["--keys", "5,5"])).toThrow(RangeError);
    expect(() => parseBenchOptions(["--keys"])).toThrow(RangeError);
  });

  it("sets the state section's sizes with --state-bytes (sorted, 1e6 notation) and its key counts with --state-keys", () => {
    const o = parseBenchOptions([]);
    expect(o.stateBytes).toEqual([100e6, 1e9]);
    expect(o.stateKeys).toEqual([10_000, 10_000_000]);
    const small = parseBenchOptions(["--only", "state", "--state-bytes", "50e6,10e6", "--state-keys", "1000"]);
    expect(small.stateBytes).toEqual([10e6, 50e6]);
    expect(small.stateKeys).toEqual([1_000]);
    expect(() => parseBenchOptions(["--state-bytes", "1e6,"])).toThrow(/--state-bytes takes a comma-separated list of distinct positive integers, got '1e6,'/);
    expect(() => parseBenchOptions(["--state-bytes", "0.5"])).toThrow(RangeError);
    expect(() => parseBenchOptions(["--state-keys", "x"])).toThrow(/--state-keys takes a comma-separated list/);
  });
});
