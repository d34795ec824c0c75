import type { Schemas } from '../../api/client';
import { ruleCriteriaText } from '../../ui/criteria';
import { When } from '../../ui/When';
import { displayOf, type PanelContext } from './panel-context';
import { SplitExposures } from './SplitExposures';
import { splitText } from './SplitEditor';

/**
 * One published target, read-only: its base value and its rules in evaluation order, as the API
 * has them (the panel's overview: `detail`); with `exposures`, beside its splits, how many
 * contexts each split value reached.
 */
export function PublishedTarget({
  context,
  target,
  detail,
  label,
  exposures,
}: {
  context: PanelContext;
  target: Schemas['Target'];
  /** Its rules and prerequisites; absent while the overview has not named them. */
  detail?: Schemas['TargetRules'];
  label: string;
  exposures?: Schemas['SplitExposure'][];
}) {
  const required = detail?.prerequisites ?? [];
  const list = detail?.rules;
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
      {exposures && (target.split || list?.some((rule) => rule.split)) ? <SplitExposures context={context} rows={exposures} /> : null}
    </div>
  );
}
