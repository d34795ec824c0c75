import { api, unwrap, type Schemas } from '../../api/client';
import { ruleCriteriaText } from '../../ui/criteria';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import { displayOf, targetsPath, type PanelContext } from './EnvironmentPanel';
import { SplitExposures } from './SplitExposures';
import { splitText } from './SplitEditor';

const targetPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}' as const;
const rulesPath = `${targetPath}/rules` as const;

/**
 * One published target, read-only: its base value and its rules in evaluation order, as the API
 * has them; with `exposures`, beside its splits, how many contexts each split value reached.
 */
export function PublishedTarget({
  context,
  target,
  label,
  exposures = false,
}: {
  context: PanelContext;
  target: Schemas['Target'];
  label: string;
  exposures?: boolean;
}) {
  const rules = useAsync(
    () => unwrap(api.GET(rulesPath, { params: { path: { ...targetsPath(context), targetUlid: target.ulid } } })),
    [context.project, context.flag, context.environment.key, target.ulid],
  );
  const prerequisites = useAsync(
    () => unwrap(api.GET(`${targetPath}/prerequisites`, { params: { path: { ...targetsPath(context), targetUlid: target.ulid } } })),
    [context.project, context.flag, context.environment.key, target.ulid],
  );
  const required = prerequisites.data?.data ?? [];
  const list = rules.data?.data;
  return (
    <div className="published-target">
      <p>
        Published <When iso={target.published_at} none="" />
        {target.comment ? ` · “${target.comment}”` : ''}. Base value, served when no rule matches:{' '}
        <code>{displayOf(context.values, target.value_ulid)}</code>
        {target.split ? <> · split of the base: {splitText(target.split, context.values)}</> : null}
      </p>
      {required.length > 0 ? (
        <p>
          Only while{' '}
          {required.map((p, i) => (
            <span key={p.flag_ulid}>
              {i > 0 ? ' and ' : ''}
              <code>{p.flag_key}</code> serves one of its {p.value_ulids.length} required value{p.value_ulids.length > 1 ? 's' : ''}
            </span>
          ))}
          ; otherwise the default value (prerequisites).
        </p>
      ) : null}
      <ErrorMessage problem={rules.problem ?? prerequisites.problem} />
      {list && list.length === 0 ? <p>No rules: every context gets the base value.</p> : null}
      {list && list.length > 0 ? (
        <ol className="published-rules" aria-label={label}>
          {list.map((rule) => (
            <li key={rule.ulid}>
              <strong>{rule.description}</strong>: serves{' '}
              {rule.split ? (
                `a split (${splitText(rule.split, context.values)})`
              ) : (
                <code>{displayOf(context.values, rule.value_ulid)}</code>
              )}{' '}
              when {ruleCriteriaText(rule)}
            </li>
          ))}
        </ol>
      ) : null}
      {exposures && (target.split || list?.some((rule) => rule.split)) ? <SplitExposures context={context} /> : null}
    </div>
  );
}
