import type { components } from '../../../generated/management.js';
import { SPLIT_WEIGHT_TOTAL } from '../../engine/index.js';
import { FieldErrorList, type ErrorCode } from '../../http/errors.js';
import { DisplayError, normaliseDisplay } from '../flag-values/display.js';
import { servingStepRefusal } from './rollout-change.js';
import { same, sameServing } from './serving-comparison.js';

type Schemas = components['schemas'];
export type ProjectConfiguration = Schemas['ProjectConfiguration'];
export type ConfigurationChange = Schemas['ConfigurationChange'];
export type ConfigurationPlan = Schemas['ConfigurationPlan'];
type ConfigurationFlag = Schemas['ConfigurationFlag'];
type ConfigurationServing = Schemas['ConfigurationServing'];
type ConfigurationSplit = NonNullable<ConfigurationServing['split']>;

/** The fields of two records whose values differ (only the fields named). */
function differing<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): string[] {
  return fields.filter((f) => !same(before[f], after[f]));
}

function byKey<T extends { key: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.key, item]));
}

/**
 * Checks a configuration file against itself and the project, and returns it with every value in
 * its normalised display form (what the project stores), or the field errors, keyed by the path
 * inside the file (`flags.3.values.1.value`).
 */
export function normaliseConfiguration(
  desired: ProjectConfiguration,
  current: ProjectConfiguration,
): { configuration: ProjectConfiguration; errors: FieldErrorList } {
  // Every error here is a rule of the file as a whole or of the project, never the document's.
  const errors = new FieldErrorList();
  const add = (field: string, message: string, code: ErrorCode) => errors.add(field, message, code);
  if (desired.project.key !== current.project.key) {
    add('project.key', `The file describes project "${desired.project.key}", not "${current.project.key}".`, 'invalid_combination');
  }
  const duplicates = (list: { key: string }[], path: string) => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.key)) add(`${path}.${i}.key`, `The key "${item.key}" appears twice.`, 'invalid_combination');
      seen.add(item.key);
    });
  };
  duplicates(desired.environments, 'environments');
  duplicates(desired.segments, 'segments');
  duplicates(desired.flags, 'flags');

  const environmentKeys = new Set(desired.environments.map((e) => e.key));
  const segmentKeys = new Set(desired.segments.map((s) => s.key));
  const currentFlags = byKey(current.flags);
  // Every flag's values in normalised form, for the prerequisites that name them.
  const valuesOfFlag = new Map(
    desired.flags.map((flag) => [
      flag.key,
      {
        type: flag.type,
        displays: new Set(
          flag.values.map((v) => {
            try {
              return normaliseDisplay(flag.type, v.value).display;
            } catch {
              return v.value;
            }
          }),
        ),
      },
    ]),
  );
  const flags = desired.flags.map((flag, i): ConfigurationFlag => {
    const path = `flags.${i}`;
    const existing = currentFlags.get(flag.key);
    if (existing && existing.type !== flag.type) {
      add(`${path}.type`, `The type of flag "${flag.key}" is ${existing.type} and cannot change.`, 'state_conflict');
    }
    const normalise = (display: string, field: string): string => {
      try {
        return normaliseDisplay(flag.type, display).display;
      } catch (error) {
        if (!(error instanceof DisplayError)) throw error;
        add(field, error.message, 'value_type_mismatch');
        return display;
      }
    };
    const values = flag.values.map((v, j) => ({ value: normalise(v.value, `${path}.values.${j}.value`), default: v.default }));
    const displays = new Set<string>();
    values.forEach((v, j) => {
      if (displays.has(v.value)) {
        add(`${path}.values.${j}.value`, `The value ${v.value} appears twice (after normalisation).`, 'invalid_combination');
      }
      displays.add(v.value);
    });
    if (values.length > 0 && values.filter((v) => v.default).length !== 1) {
      add(`${path}.values`, 'Exactly one value must be the default.', 'invalid_combination');
    }
    const environments: Record<string, ConfigurationServing> = {};
    for (const [environmentKey, serving] of Object.entries(flag.environments)) {
      const servingPath = `${path}.environments.${environmentKey}`;
      if (!environmentKeys.has(environmentKey)) {
        add(servingPath, `The environment "${environmentKey}" is not in the file's environments.`, 'reference_not_found');
      }
      const known = (display: string, field: string) => {
        const normalised = normalise(display, field);
        if (!displays.has(normalised)) add(field, `The value ${display} is not one of the flag's values.`, 'reference_not_found');
        return normalised;
      };
      // A split's values are the flag's, each once, and their weights make 100 %.
      const knownSplit = (split: ConfigurationSplit | undefined, field: string): ConfigurationSplit | undefined => {
        if (split === undefined) return undefined;
        const total = split.shares.reduce((sum, s) => sum + s.weight, 0);
        if (total !== SPLIT_WEIGHT_TOTAL) {
          add(
            `${field}.shares`,
            `The weights of the split must sum to ${SPLIT_WEIGHT_TOTAL} (100 %); they sum to ${total}.`,
            'invalid_combination',
          );
        }
        const seen = new Set<string>();
        const shares = split.shares.map((share, k) => {
          const value = known(share.value, `${field}.shares.${k}.value`);
          if (seen.has(value))
            add(`${field}.shares.${k}.value`, `The value ${share.value} appears twice in the split.`, 'invalid_combination');
          seen.add(value);
          return { value, weight: share.weight };
        });
        return { ...split, shares };
      };
      const baseSplit = knownSplit(serving.split, `${servingPath}.split`);
      environments[environmentKey] = {
        ...serving,
        ...(baseSplit === undefined ? {} : { split: baseSplit }),
        value: known(serving.value, `${servingPath}.value`),
        rules: serving.rules.map((rule, r) => {
          rule.criteria.forEach((criterion, c) => {
            if (criterion.selector !== 'segment') return;
            for (const key of criterion.values ?? []) {
              if (!segmentKeys.has(key)) {
                add(
                  `${servingPath}.rules.${r}.criteria.${c}.values`,
                  `The segment "${key}" is not in the file's segments.`,
                  'reference_not_found',
                );
              }
            }
          });
          const ruleSplit = knownSplit(rule.split, `${servingPath}.rules.${r}.split`);
          return {
            ...rule,
            ...(ruleSplit === undefined ? {} : { split: ruleSplit }),
            value: known(rule.value, `${servingPath}.rules.${r}.value`),
          };
        }),
        ...(serving.prerequisites === undefined
          ? {}
          : {
              prerequisites: serving.prerequisites.map((p, k) => {
                const at = `${servingPath}.prerequisites.${k}`;
                const required = valuesOfFlag.get(p.flag);
                if (required === undefined || p.flag === flag.key) {
                  add(
                    `${at}.flag`,
                    p.flag === flag.key ? 'A flag cannot require itself.' : `The flag "${p.flag}" is not in the file's flags.`,
                    p.flag === flag.key ? 'invalid_combination' : 'reference_not_found',
                  );
                  return p;
                }
                return {
                  flag: p.flag,
                  values: p.values.map((v, j) => {
                    let display = v;
                    try {
                      display = normaliseDisplay(required.type, v).display;
                    } catch {
                      // not a value of that flag's type: reported just below
                    }
                    if (!required.displays.has(display)) {
                      add(`${at}.values.${j}`, `The value ${v} is not one of the values of flag "${p.flag}".`, 'reference_not_found');
                    }
                    return display;
                  }),
                };
              }),
            }),
      };
      // What plan lists, apply must make: a change the rollout operations cannot make is refused here.
      const refusal = servingStepRefusal(existing?.environments[environmentKey], environments[environmentKey]!);
      if (refusal) add(`${servingPath}.rollout.percentage`, refusal, 'state_conflict');
    }
    return { ...flag, values, environments };
  });
  return { configuration: { ...desired, flags }, errors };
}

/**
 * What a plan compares a file with when the project does not exist yet: a project with the path's
 * key and nothing in it, which the file creates (`newProject` in planConfiguration).
 */
export function absentProject(projectKey: string, desired: ProjectConfiguration): ProjectConfiguration {
  return { version: 1, project: { ...desired.project, key: projectKey }, environments: [], segments: [], flags: [] };
}

/**
 * The changes that would turn `current` into `desired` (both normalised), in a fixed order. With
 * `newProject`, `current` is absentProject(...) and the first change creates the project.
 */
export function planConfiguration(
  current: ProjectConfiguration,
  desired: ProjectConfiguration,
  options: { prune: boolean; newProject?: boolean },
): ConfigurationPlan {
  const changes: ConfigurationChange[] = [];
  const change = (c: Omit<ConfigurationChange, 'environment' | 'fields' | 'before' | 'after'> & Partial<ConfigurationChange>) =>
    changes.push({ environment: null, fields: [], before: null, after: null, ...c });

  const projectFields = differing(current.project, desired.project, ['name', 'description']);
  if (options.newProject) change({ action: 'create', kind: 'project', key: desired.project.key, after: desired.project });
  else if (projectFields.length > 0) {
    change({
      action: 'update',
      kind: 'project',
      key: desired.project.key,
      fields: projectFields,
      before: current.project,
      after: desired.project,
    });
  }

  const keyed = <T extends { key: string }>(
    kind: ConfigurationChange['kind'],
    before: T[],
    after: T[],
    fields: readonly (keyof T & string)[],
  ) => {
    const existing = byKey(before);
    for (const item of after) {
      const was = existing.get(item.key);
      if (!was) change({ action: 'create', kind, key: item.key, after: item });
      else {
        const changed = differing(was, item, fields);
        if (changed.length > 0) change({ action: 'update', kind, key: item.key, fields: changed, before: was, after: item });
      }
    }
    if (!options.prune) return;
    const wanted = new Set(after.map((i) => i.key));
    for (const item of before) if (!wanted.has(item.key)) change({ action: 'delete', kind, key: item.key, before: item });
  };
  keyed('environment', current.environments, desired.environments, [
    'name',
    'description',
    'color',
    'comments_required',
    'confirmation_required',
  ]);
  keyed('segment', current.segments, desired.segments, ['name', 'description', 'included', 'excluded', 'rules']);
  // No tags and an empty list are the same: both leave `tags` out.
  const strip = ({
    values: _values,
    environments: _environments,
    tags,
    ...settings
  }: ConfigurationFlag): Omit<ConfigurationFlag, 'values' | 'environments'> => (tags && tags.length > 0 ? { ...settings, tags } : settings);
  keyed('flag', current.flags.map(strip), desired.flags.map(strip), [
    'name',
    'description',
    'permanent',
    'include_in_mobile',
    'include_in_client',
    'tags',
  ]);

  const currentFlags = byKey(current.flags);
  for (const flag of desired.flags) {
    const was = currentFlags.get(flag.key);
    const values = new Map((was?.values ?? []).map((v) => [v.value, v]));
    for (const value of flag.values) {
      const old = values.get(value.value);
      if (!old) change({ action: 'create', kind: 'flag_value', key: flag.key, value: value.value, after: value });
      else if (old.default !== value.default)
        change({ action: 'update', kind: 'flag_value', key: flag.key, value: value.value, fields: ['default'], before: old, after: value });
    }
    if (options.prune) {
      const wanted = new Set(flag.values.map((v) => v.value));
      for (const old of was?.values ?? [])
        if (!wanted.has(old.value)) change({ action: 'delete', kind: 'flag_value', key: flag.key, value: old.value, before: old });
    }
  }
  for (const flag of desired.flags) {
    const was = currentFlags.get(flag.key);
    for (const [environment, serving] of Object.entries(flag.environments)) {
      const before = was?.environments[environment];
      if (before && sameServing(before, serving)) continue;
      change({ action: 'publish', kind: 'serving', key: flag.key, environment, before: before ?? null, after: serving });
    }
  }
  const count = (action: ConfigurationChange['action']) => changes.filter((c) => c.action === action).length;
  return {
    changes,
    summary: { create: count('create'), update: count('update'), delete: count('delete'), publish: count('publish') },
    // Filled by the services from the caller and the stored settings (refusals.ts).
    refusals: [],
  };
}
