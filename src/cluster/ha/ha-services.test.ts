import { describe, expect, it } from "vitest";
import { Configuration } from "../../config/configuration.ts";
import { ConfigurationError } from "../../config/configuration-error.ts";
import { haSettings } from "./ha-services.ts";

describe("haSettings", () => {
  const etcd = { "high-availability.type": "etcd", "high-availability.etcd.endpoints": "http://10.0.0.1:2379, http://10.0.0.2:2379", "high-availability.storageDir": "/shared/ha" };

  it("is null without high availability", () => {
    expect(haSettings(new Configuration())).toBeNull();
    expect(haSettings(Configuration.fromMap({ "high-availability.type": "NONE" }))).toBeNull();
  });

  it("reads the etcd settings with their defaults, and Flink's older key of the type", () => {
    expect(haSettings(Configuration.fromMap(etcd))).toEqual({ endpoints: ["http://10.0.0.1:2379", "http://10.0.0.2:2379"], clusterId: "default", storageDir: "/shared/ha", leaseTtlMs: 15_000 });
    const { "high-availability.type": _, ...rest } = etcd;
    const conf = Configuration.fromMap({ ...rest, "high-availability": "etcd", "high-availability.cluster-id": "prod", "high-availability.etcd.lease-ttl": "5 s" });
    expect(haSettings(conf)).toMatchObject({ clusterId: "prod", leaseTtlMs: 5_000 });
  });

  it("names what etcd high availability lacks", () => {
    expect(() => haSettings(Configuration.fromMap({ "high-availability.type": "etcd", "high-availability.storageDir": "/ha" }))).toThrow(
      "high-availability.type etcd needs 'high-availability.etcd.endpoints' (the etcd client URLs)",
    );
    expect(() => haSettings(Configuration.fromMap({ "high-availability.type": "etcd", "high-availability.etcd.endpoints": "http://h:2379" }))).toThrow(ConfigurationError);
  });

  it("refuses values the options do not accept", () => {
    expect(() => Configuration.fromMap({ "high-availability.etcd.lease-ttl": "1500 ms" })).toThrow("expected a whole number of seconds, at least 1 s");
    expect(() => Configuration.fromMap({ "high-availability.etcd.endpoints": "10.0.0.1:2379" })).toThrow(/http:\/\/ or https:\/\/ URLs/);
    expect(() => Configuration.fromMap({ "high-availability.cluster-id": "a/b" })).toThrow(/no '\/'/);
    expect(() => Configuration.fromMap({ "high-availability.type": "zookeeper" })).toThrow("expected one of 'none', 'etcd'");
  });
});
