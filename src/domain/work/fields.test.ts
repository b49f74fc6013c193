import { describe, expect, it } from 'vitest';
import type { DeskContext } from '../context.ts';
import { DeskError } from '../errors.ts';
import { checkFields, type OwnerFields } from './fields.ts';

// A refused field is named in details.field, with the name the screen's form uses for it.

const ctx = { today: () => '2026-03-10' } as unknown as DeskContext;

async function refusal(f: OwnerFields): Promise<DeskError> {
  const err = await checkFields(ctx, f).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof DeskError)) throw new Error(`expected a refusal of ${JSON.stringify(f)}`);
  return err;
}

describe('checkFields', () => {
  it.each([
    [{ title: '  ' }, 'title', 'A work item needs a title.'],
    [{ title: 'x'.repeat(501) }, 'title', 'A title is at most 500 characters.'],
    [{ kind: ' ' }, 'kind', 'kind must not be empty.'],
    [{ kind: 'k'.repeat(101) }, 'kind', 'A kind is at most 100 characters.'],
    [{ detail: 'd'.repeat(20_001) }, 'detail', 'The detail is at most 20,000 characters.'],
    [{ contact_name: 'n'.repeat(201) }, 'contact_name', "A contact's name is at most 200 characters."],
    [{ contact_email: `${'e'.repeat(250)}@x.test` }, 'contact_email', 'An email address is at most 254 characters.'],
    [{ waiting_on: 'w'.repeat(255) }, 'waiting_on', 'Who the row waits on is at most 254 characters.'],
    [{ due: '31/12/2026' }, 'due', '"31/12/2026" is not a date; use YYYY-MM-DD, today, +14d or -3d.'],
    [{ due: '0026-12-31' }, 'due', '"0026-12-31" is before 1900-01-01, the first day the desk keeps.'],
    [{ priority: '500' }, 'priority', 'priority must be a whole number from 1 to 100, not "500".'],
    [{ priority: ' ' }, 'priority', 'priority must be a whole number from 1 to 100, not " ".'],
    // Typed as text, a number is its digits alone.
    [{ priority: '0x10' }, 'priority', 'priority must be a whole number from 1 to 100, not "0x10".'],
    [{ priority: '5e1' }, 'priority', 'priority must be a whole number from 1 to 100, not "5e1".'],
    [{ chase_after_days: '7.0' }, 'chase_after_days', expect.stringMatching(/^chase_after_days must be/)],
    [{ arrangement_id: '0x4' }, 'arrangement_id', 'There is no arrangement 0x4 on this desk.'],
    [{ class: 'spend' }, 'class', expect.stringMatching(/^"spend" is not a permission class/)],
    [{ chase_after_days: '0' }, 'chase_after_days', expect.stringMatching(/^chase_after_days must be/)],
    [{ contact_email: 'maria at example' }, 'contact_email', '"maria at example" is not an email address.'],
    [
      { contact_email: 'ann,bob@x.test' },
      'contact_email',
      '"ann,bob@x.test" is not an email address; give one address, with no commas or semicolons.',
    ],
    [
      { contact_email: 'ann@x.test;bob@x.test' },
      'contact_email',
      '"ann@x.test;bob@x.test" is not an email address; give one address, with no commas or semicolons.',
    ],
    [{ arrangement_id: 'seven' }, 'arrangement_id', 'There is no arrangement seven on this desk.'],
    [{ unit_id: '-1' }, 'unit_id', 'There is no unit -1 on this desk.'],
    // Past the largest id, refused without asking the store (PostgreSQL would refuse the number).
    [{ arrangement_id: '2147483648' }, 'arrangement_id', 'There is no arrangement 2147483648 on this desk.'],
    [{ unit_id: 99_999_999_999 }, 'unit_id', 'There is no unit 99999999999 on this desk.'],
  ] as const)('refuses %j naming field %s', async (f, field, message) => {
    const err = await refusal(f as OwnerFields);
    expect({ code: err.code, field: err.details?.field, message: err.message }).toEqual({
      code: 'bad_request',
      field,
      message,
    });
  });

  it('reads what a form sends: dates relative to the desk today, "none" and blanks as nothing', async () => {
    await expect(
      checkFields(ctx, { title: ' Renew ', due: '+14d', priority: '70', class: '', contact_name: ' ', detail: '' }),
    ).resolves.toEqual({
      title: 'Renew',
      due_date: '2026-03-24',
      priority: 70,
      class: null,
      contact_name: null,
      detail: null,
    });
    await expect(checkFields(ctx, { due: 'none', class: 'none' })).resolves.toEqual({ due_date: null, class: null });
  });

  it('takes text as long as each field allows', async () => {
    await expect(
      checkFields(ctx, { title: 't'.repeat(500), kind: 'k'.repeat(100), contact_name: 'n'.repeat(200) }),
    ).resolves.toEqual({ title: 't'.repeat(500), kind: 'k'.repeat(100), contact_name: 'n'.repeat(200) });
  });

  it('refuses several mistakes at once: a summary, and each beside its field', async () => {
    const err = await refusal({ title: ' ', due: 'soon', priority: '0', contact_email: 'nobody' });
    expect(err.message).toBe('4 fields need fixing; nothing was changed.');
    expect(err.details).toEqual({
      field: 'title',
      errors: [
        'A work item needs a title.',
        '"soon" is not a date; use YYYY-MM-DD, today, +14d or -3d.',
        'priority must be a whole number from 1 to 100, not "0".',
        '"nobody" is not an email address.',
      ],
      fields: [
        { field: 'title', message: 'A work item needs a title.' },
        { field: 'due', message: '"soon" is not a date; use YYYY-MM-DD, today, +14d or -3d.' },
        { field: 'priority', message: 'priority must be a whole number from 1 to 100, not "0".' },
        { field: 'contact_email', message: '"nobody" is not an email address.' },
      ],
    });
  });

  it('takes a row off its arrangement or unit for null or text left empty', async () => {
    await expect(checkFields(ctx, { arrangement_id: '', unit_id: ' ' })).resolves.toEqual({
      arrangement_id: null,
      unit_id: null,
    });
    await expect(checkFields(ctx, { arrangement_id: null, unit_id: null })).resolves.toEqual({
      arrangement_id: null,
      unit_id: null,
    });
  });
});
