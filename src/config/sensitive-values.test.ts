import { describe, expect, it } from "vitest";
import { hideSensitiveValues } from "./sensitive-values.ts";

describe("hideSensitiveValues", () => {
  it("hides tokens, passwords and secrets, as Flink", () => {
    expect(hideSensitiveValues({ "rest.token": "abcdefgh", "properties.sasl.jaas.config": "x", "password": "p", "rest.port": "8081" })).toEqual({
      "rest.token": "******",
      "properties.sasl.jaas.config": "******",
      password: "******",
      "rest.port": "8081",
    });
  });
});
