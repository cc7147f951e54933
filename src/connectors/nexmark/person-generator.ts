/** Makes the person of a person event. */
import { PersonObject } from "./event-objects.ts";
import type { EventRandom } from "./event-random.ts";
import { FIRST_PERSON_ID, lastPersonId } from "./nexmark-ids.ts";
import type { Person } from "./nexmark-event.ts";
import type { NexmarkConfig } from "./nexmark-options.ts";
import { nextExtra, nextString } from "./nexmark-strings.ts";

const STATES = ["AZ", "CA", "ID", "OR", "WA", "WY"];
const CITIES = ["Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"];
const FIRST_NAMES = ["Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"];
const LAST_NAMES = ["Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"];

/** The person registered by event `n` (a person event) at `dateTime`; `r` is started for `n`. */
export function nextPerson(c: NexmarkConfig, r: EventRandom, n: number, dateTime: number): Person {
  const name = `${pick(r, FIRST_NAMES)} ${pick(r, LAST_NAMES)}`;
  const emailAddress = `${nextString(r, 7)}@${nextString(r, 5)}.com`;
  const creditCard = `${digits4(r)} ${digits4(r)} ${digits4(r)} ${digits4(r)}`;
  const city = pick(r, CITIES);
  const state = pick(r, STATES);
  const size = 8 + name.length + emailAddress.length + creditCard.length + city.length + state.length;
  return new PersonObject(lastPersonId(c, n) + FIRST_PERSON_ID, name, emailAddress, creditCard, city, state, dateTime, nextExtra(r, size, c.avgPersonByteSize));
}

function pick(r: EventRandom, values: readonly string[]): string {
  return values[r.nextInt(values.length)]!;
}

function digits4(r: EventRandom): string {
  return String(r.nextInt(10_000)).padStart(4, "0");
}
