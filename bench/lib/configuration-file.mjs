/**
 * A generated flags-as-code file: `count` boolean flags in a project with staging and production;
 * with `serving`, each flag is served in production (every other one with a rule).
 */
export function generatedConfiguration(projectKey, count, { serving = false } = {}) {
  return {
    version: 1,
    project: { key: projectKey, name: 'Bench', description: '' },
    environments: ['staging', 'production'].map((key) => ({
      key,
      name: key,
      description: null,
      color: '#808080',
      comments_required: false,
      confirmation_required: false,
    })),
    segments: [],
    flags: Array.from({ length: count }, (_, i) => ({
      key: `flag-${String(i).padStart(5, '0')}`,
      name: `Flag ${i}`,
      type: 'boolean',
      description: null,
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: [
        { value: 'true', default: false },
        { value: 'false', default: true },
      ],
      environments: serving
        ? {
            production: {
              value: 'false',
              comment: null,
              rules:
                i % 2 === 0
                  ? []
                  : [
                      {
                        description: 'Staff',
                        value: 'true',
                        criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@example.com'] }],
                      },
                    ],
              rollout: null,
            },
          }
        : {},
    })),
  };
}
