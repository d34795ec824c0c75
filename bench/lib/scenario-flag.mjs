/**
 * The scenario-1 flag of the performance issue, shared by the engine benchmark (scenario 5) and
 * the SDK benchmark: a boolean flag with 5 rules of 3 criteria and a 50 % rollout whose previous
 * target carries the same rules, plus 1,000 users whose attributes fail every rule on its third
 * criterion (all 15 criteria evaluated, then the rollout decides).
 */
export const FLAG = 'checkout-redesign';
export const USERS = 1000;
export const COUNTRIES = ['DE', 'FR', 'NL', 'BE', 'AT'];

const rules = (value) =>
  Array.from({ length: 5 }, (_, i) => ({
    value,
    criteria: [
      { selector: 'attribute', sub_selector: 'country', comparer: 'in', values: COUNTRIES },
      { selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@example.com'] },
      { selector: 'attribute', sub_selector: 'seats', comparer: 'gte', values: [String((i + 1) * 100)] },
    ],
  }));

/** EnvironmentConfig holding only the scenario-1 flag. */
export const scenarioConfig = {
  revision: 1,
  flags: [
    {
      key: FLAG,
      name: 'Checkout redesign',
      type: 'boolean',
      include_in_mobile: true,
      include_in_client: true,
      default: { value: false },
      serving: { value: true, rules: rules(true) },
      previous: { value: false, rules: rules(false) },
      rollout: { percentage: 50 },
    },
  ],
  segments: [],
};

/** The users, as Vexil contexts. */
export const scenarioContexts = Array.from({ length: USERS }, (_, i) => ({
  type: 'user',
  identifier: `user-${i}`,
  attributes: [
    { key: 'country', values: [{ value: COUNTRIES[i % COUNTRIES.length] }] },
    { key: 'email', values: [{ value: `user-${i}@example.com` }] },
    { key: 'seats', values: [{ value: '50' }] },
  ],
}));
