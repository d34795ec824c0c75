import type { Schemas } from '../../api/client';
import type { PanelContext } from './panel-context';
import { PublishedTarget } from './PublishedTarget';
import { RolloutControls } from './RolloutControls';

const newestFirst = (a: Schemas['Target'], b: Schemas['Target']) =>
  (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.ulid.localeCompare(a.ulid);
const rolling = (t: Schemas['Target']) => t.rollout_status === 'active' || t.rollout_status === 'paused';

/**
 * What an environment serves now and why, read-only: the newest published target with its rules
 * and rollout. While its rollout is in progress the contexts outside it get the previous publish
 * (or, with none, the flag's default value), which is shown too.
 */
export function PublishedConfiguration({
  context,
  targets,
  targetRules,
  exposures,
  onRolloutChange,
}: {
  context: PanelContext;
  targets: Schemas['Target'][];
  /** The rules and prerequisites of the publishes shown (the panel's overview). */
  targetRules: Schemas['TargetRules'][];
  /** The contexts each split value reached (the panel's overview). */
  exposures: Schemas['SplitExposure'][];
  onRolloutChange: () => void;
}) {
  const { environment } = context;
  const [current, previous] = targets.filter((t) => t.status === 'published').sort(newestFirst);
  const id = `published-${environment.key}`;
  const detailOf = (target: Schemas['Target']) => targetRules.find((t) => t.target_ulid === target.ulid);
  return (
    <section className="published" aria-labelledby={id}>
      <h3 id={id}>Published in {environment.name}</h3>
      {current ? (
        <>
          <PublishedTarget
            context={context}
            target={current}
            detail={detailOf(current)}
            label={`Published rules in ${environment.name}`}
            exposures={exposures}
          />
          {rolling(current) ? (
            <>
              <RolloutControls context={context} target={current} onChange={onRolloutChange} />
              <h4>Contexts outside the rollout</h4>
              {previous ? (
                <PublishedTarget
                  context={context}
                  target={previous}
                  detail={detailOf(previous)}
                  label={`Rules of the previous publish in ${environment.name}`}
                />
              ) : (
                <p>They get the flag's default value: nothing was published here before.</p>
              )}
            </>
          ) : (
            <p>
              {current.rollout_mode ? `Its ${current.rollout_mode} rollout is complete: every` : 'No rollout: every'} context gets this
              publish.
            </p>
          )}
        </>
      ) : (
        <p>Nothing is published in {environment.name}: every context gets the flag's default value.</p>
      )}
    </section>
  );
}
