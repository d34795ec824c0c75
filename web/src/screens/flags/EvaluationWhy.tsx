import { api, unwrap, type Schemas } from '../../api/client';
import { criterionText } from '../../ui/criteria';
import { useAsync } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './panel-context';

const rulesPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules' as const;

/** The sentences of an evaluation's explanation: the rollout bucket, the publish that answered, each rule tried. */
export function EvaluationWhy({ context, result }: { context: PanelContext; result: Schemas['EvaluationResult'] }) {
  const why = result.explanation;
  // The criteria of the rules tried, to name the one that decided.
  const rules = useAsync(
    () =>
      why.target_ulid && why.rules.length > 0
        ? unwrap(api.GET(rulesPath, { params: { path: { ...targetsPath(context), targetUlid: why.target_ulid } } }))
        : Promise.resolve(undefined),
    [why.target_ulid, why.rules.length],
  );
  const criterionOf = (ruleUlid: string, position: number) => {
    const criterion = rules.data?.data.find((r) => r.ulid === ruleUlid)?.criteria.data[position];
    return criterion ? criterionText({ ...criterion, values: criterion.values.data.map((v) => v.value) }) : `criterion ${position + 1}`;
  };
  const matched = why.rules.find((r) => r.matched);
  return (
    <ul className="why" aria-label="Why">
      {why.rollout ? (
        <li>
          A rollout to {why.rollout.percentage}% is in progress:{' '}
          {why.rollout.bucket === null
            ? 'without an identifier the context is outside it'
            : `the context's bucket is ${why.rollout.bucket}, ${why.rollout.in_rollout ? 'inside' : 'outside'} it (inside below ${why.rollout.percentage * 100})`}
          .
        </li>
      ) : null}
      <li>
        {why.target === 'newest'
          ? 'The newest publish answered.'
          : why.target === 'previous'
            ? 'The publish before the rollout answered.'
            : result.resolved_by === 'unavailable'
              ? 'The flag has no value to serve.'
              : "Nothing published answered: the flag's default value is served."}
      </li>
      {why.prerequisite_failed !== null ? (
        <li>
          Prerequisite flag “{why.prerequisite_failed}” did not serve a required value, so the flag's default value is served and no rule
          was tried.
        </li>
      ) : null}
      {why.rules.map((rule) => (
        <li key={rule.ulid}>
          Rule {rule.position + 1} “{rule.description}”:{' '}
          {rule.matched
            ? 'matched, every criterion holds; it serves its value.'
            : `did not match: ${criterionOf(rule.ulid, rule.first_unmatched_criterion ?? 0)} does not hold.`}
        </li>
      ))}
      {why.target !== 'none' && !matched && why.prerequisite_failed === null ? (
        <li>{why.rules.length === 0 ? 'It has no rules' : 'No rule matched'}: its base value is served.</li>
      ) : null}
    </ul>
  );
}
