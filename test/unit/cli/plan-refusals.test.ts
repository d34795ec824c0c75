import { describe, expect, it } from 'vitest';
import { printRefusals } from '../../../cli/src/commands/plan.js';
import type { Output } from '../../../cli/src/output.js';

function captured(): { out: Output; text: () => string } {
  let text = '';
  const out = { json: false, colour: false, write: (t: string) => (text += t), status: {} } as unknown as Output;
  return { out, text: () => text };
}

describe('vexil plan: the refusals apply would make', () => {
  it('prints each refusal with how to give what is missing', () => {
    const { out, text } = captured();
    printRefusals(out, [
      {
        code: 'comment_required',
        environment: 'production',
        flag: 'banner-text',
        message: 'Publishing "banner-text" in production needs a comment: the environment requires one.',
        remedy: 'Give a comment: `vexil apply FILE --comment TEXT` on the command line, `?comment=TEXT` in the API.',
      },
      {
        code: 'confirmation_required',
        environment: 'locked',
        flag: null,
        message: 'The environment "locked" requires typed confirmation; a Bearer token cannot change it.',
        remedy: 'Apply in the web console.',
      },
    ]);
    expect(text()).toBe(
      [
        '',
        'Apply would refuse this file (2):',
        '  ! comment_required in production (banner-text): Publishing "banner-text" in production needs a comment: the environment requires one.',
        '    Give a comment: `vexil apply FILE --comment TEXT` on the command line, `?comment=TEXT` in the API.',
        '  ! confirmation_required in locked: The environment "locked" requires typed confirmation; a Bearer token cannot change it.',
        '    Apply in the web console.',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing when apply would apply', () => {
    const { out, text } = captured();
    printRefusals(out, []);
    expect(text()).toBe('');
  });
});
