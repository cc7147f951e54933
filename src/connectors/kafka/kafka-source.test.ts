import { describe, expect, it } from "vitest";
import { SimpleStringSchema } from "../../core/serialization-schema.ts";
import { KafkaConfigError } from "./kafka-config.ts";
import { KafkaSource } from "./kafka-source.ts";
import { OffsetsInitializer } from "./offsets-initializer.ts";

const base = () => KafkaSource.builder<string>().setBootstrapServers("127.0.0.1:9092").setTopics("orders").setValueOnlyDeserializer(new SimpleStringSchema());

describe("KafkaSource.builder", () => {
  it("builds a continuous source by default, a bounded one with setBounded; one discovery split per reader", () => {
    expect(base().build().boundedness).toBe("continuous");
    const bounded = base().setBounded(OffsetsInitializer.latest()).build();
    expect(bounded.boundedness).toBe("bounded");
    expect(bounded.createSplits(3).map((s) => bounded.splitId(s))).toEqual(["discovery 0/3", "discovery 1/3", "discovery 2/3"]);
    expect(bounded.splitId({ kind: "partition", topic: "orders", partition: 2, offset: 5 })).toBe("orders-2");
  });

  it.each([
    ["no bootstrap servers", () => KafkaSource.builder<string>().setTopics("t").setValueOnlyDeserializer(new SimpleStringSchema()).build(), /bootstrap servers are not set/],
    ["a bootstrap server without port", () => base().setBootstrapServers("kafka").build(), /bootstrap server 'kafka' is not host:port/],
    ["no topics", () => KafkaSource.builder<string>().setBootstrapServers("h:1").setValueOnlyDeserializer(new SimpleStringSchema()).build(), /no topics to read/],
    ["topics and a pattern", () => base().setTopicPattern(/o.*/).build(), /either topics .* or a topic pattern/],
    ["an illegal topic name", () => base().setTopics("a b").build(), /'a b' is not a legal topic name/],
    ["no deserializer", () => KafkaSource.builder<string>().setBootstrapServers("h:1").setTopics("t").build(), /no deserializer/],
    ["an unknown isolation.level", () => base().setProperty("isolation.level", "serializable"), /'isolation.level' must be one of read_committed, read_uncommitted, got 'serializable'/],
    ["a bad interval", () => base().setProperty("partition.discovery.interval.ms", "soon"), /'partition.discovery.interval.ms' must be an integer >= -1, got 'soon'/],
    ["an unknown property", () => base().setProperty("isolation.levle", "read_committed"), /unknown property 'isolation.levle' \(did you mean 'isolation.level'\?\)/],
    ["committed offsets without a group", () => base().setStartingOffsets(OffsetsInitializer.committedOffsets("earliest")).build(), /committed starting offsets need a group id/],
    ["a request timeout under the fetch wait", () => base().setProperties({ "request.timeout.ms": "100", "fetch.max.wait.ms": "500" }).build(), /request.timeout.ms \(100\) must be greater than fetch.max.wait.ms \(500\)/],
    ["a bad offset", () => OffsetsInitializer.offsets({ "orders-0": -3 }), /offset of orders-0 must be an integer >= 0/],
    ["a bad partition key", () => OffsetsInitializer.offsets({ orders: 3 }), /'orders' is not "topic-partition"/],
    ["an unknown reset strategy", () => OffsetsInitializer.committedOffsets("oldest" as "earliest"), /unknown offset reset strategy 'oldest'/],
  ])("refuses %s with a KafkaConfigError", (_what, build, message) => {
    expect(build).toThrow(KafkaConfigError);
    expect(build).toThrow(message);
  });
});
