/**
 * The names the planner gives an operator it creates: its uid (the identity
 * of its state in checkpoints and savepoints, derived from the plan) and its
 * display name (the plan node's description).
 */
export interface OperatorNaming {
  readonly uid: string;
  readonly name: string;
}
