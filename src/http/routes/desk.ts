import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listConnections } from '../../domain/desks/connections.ts';
import { listDomains } from '../../domain/desks/domains.ts';
import { permissionSummary } from '../../domain/desks/permissions.ts';
import { deskSections } from '../../domain/desks/sections.ts';
import { listUnits } from '../../domain/desks/units.ts';
import { listWatches } from '../../domain/desks/watches.ts';
import { PERMISSION_CLASSES } from '../../domain/vocab.ts';
import { DateString, Envelope, Items, keyedErrors, Nullable, Ref, RefTo } from '../schemas.ts';

// The Desk tag: how the desk is composed. None of these is paged.

const Unit = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ description: 'What one unit is; the `unit` of a units block on GET /desk.' }),
    name: Type.String(),
    fields: Type.Record(Type.String(), Nullable(Type.Union([Type.String(), Type.Number()])), {
      description: "The business's own columns: strings, numbers, dates (YYYY-MM-DD) or null.",
    }),
    arrangement_id: Nullable(Type.Integer()),
  },
  { $id: 'Unit', description: "A thing the desk is built around, such as a site, with the business's own fields." },
);

const Connection = Type.Object(
  {
    id: Type.Integer(),
    provider: Type.String({ description: 'Integration identifier.' }),
    name: Type.String({ description: 'The name a person knows it by.' }),
    category: Type.String({ description: 'What it is for: mail, accounting, files and others (open set).' }),
    auth_type: Type.String({ description: 'oauth, token, or a login the desk drives.' }),
    status: Type.String({ description: 'connected, pending, error, or another value the desk has decided.' }),
    connected: Type.Boolean({ description: 'status === connected' }),
    reason: Type.Union([Type.String(), Type.Null()], {
      description:
        'What needs a look, in words: the last pass could not read this mailbox (it still sends while its status is connected). Null otherwise. Never a secret.',
    }),
  },
  { $id: 'Connection', description: 'Something the desk is wired into; never a secret.' },
);

const Domain = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    registrar: Type.String(),
    status: Type.String({
      description:
        'live, unpaid, collections, expiring, expired or transferring; unpaid and collections need attention.',
    }),
    renewal_on: Nullable(DateString),
    amount_cents: Type.Integer({ description: 'Minor units.' }),
    currency: Type.String(),
    broker_name: Nullable(Type.String()),
    notes: Nullable(Type.String()),
  },
  { $id: 'Domain', description: 'A domain name the business holds.' },
);

const DomainSummary = Type.Object(
  {
    total: Type.Integer(),
    live: Type.Integer(),
    owing: Type.Integer({ description: 'Domains unpaid or in collections.' }),
    owing_amount: Type.Integer({
      description: "What those owe in the desk's currency, minor units; other currencies are not converted.",
    }),
    currency: Type.String({ description: "The desk's currency, that of owing_amount." }),
    broker: Type.String({ description: "The desk's broker; empty when none is set." }),
    broker_configured: Type.Boolean(),
    next: Nullable(
      Type.Object(
        { id: Type.Integer(), name: Type.String(), renewal_on: DateString },
        { description: 'The soonest renewal; null when no dates are recorded.' },
      ),
    ),
  },
  { $id: 'DomainSummary', description: 'Counts and what is owed across the domains.' },
);

const ClassCounts = Type.Object({
  doing: Type.Integer({ minimum: 0, description: 'Open rows in the class the desk may act on.' }),
  asking: Type.Integer({ minimum: 0, description: "Open rows in the class waiting on a person's decision." }),
  covered: Type.Integer({ minimum: 0, description: 'Rows already out with somebody else.' }),
});

const Permissions = Type.Object(
  {
    classes: Type.Object(
      Object.fromEntries(PERMISSION_CLASSES.map((c) => [c, ClassCounts])) as Record<
        (typeof PERMISSION_CLASSES)[number],
        typeof ClassCounts
      >,
      {
        additionalProperties: false,
        description: 'Always all six classes.',
      },
    ),
    unclassified: Type.Integer({ minimum: 0, description: 'Open rows in no class; these always ask.' }),
    needs_you: Type.Integer({ minimum: 0, description: 'Every asking, plus unclassified.' }),
    with_desk: Type.Integer({ minimum: 0, description: 'Every doing.' }),
  },
  { $id: 'PermissionSummary', description: 'What the desk may do on its own, and what waits on a person, by class.' },
);

const Watch = Type.Object(
  {
    id: Type.Integer(),
    subject_type: Type.String({ description: 'Kind of thing watched; matches /units?type=.' }),
    field: Type.String({ description: 'The field on that thing that holds the date.' }),
    label: Type.String(),
    lead_days: Type.Integer({ description: 'How far ahead the desk starts working it.' }),
    kind: Type.String({ description: 'The work kind it turns into; usable as /work?kind=.' }),
    action: Type.String({ description: 'Permission class of the resulting work.' }),
    every: Nullable(Type.String({ description: 'Recurrence, a count of days as text.' })),
    priority: Type.Integer(),
  },
  { $id: 'Watch', description: 'A date the desk watches on a kind of unit, and the work it turns into.' },
);

const UnitsQuery = Type.Object({
  type: Type.Optional(
    Type.String({ description: 'The `unit` of a units block on GET /desk; an unknown type gives an empty list.' }),
  ),
});

const get = (operationId: string, summary: string, description: string) => ({
  tags: ['Desk'],
  operationId,
  summary,
  description,
});

export const deskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const schema of [Unit, Connection, Domain, DomainSummary, Permissions, Watch]) app.addSchema(schema);

  app.get(
    '/desk',
    {
      schema: {
        ...get(
          'getDesk',
          'The composition of the screen: its sections, in order',
          'The sections, their number and their fields belong to the business: read them rather than assume ' +
            'them. The `kinds` of the work sections are the authoritative list of work kinds on this desk, and ' +
            'the `unit` of a units section is the `type` to pass to /units.',
        ),
        response: {
          200: Envelope(Type.Object({ sections: Type.Array(Ref.DeskSection) }), 'The sections of the desk, in order.'),
          ...keyedErrors(),
        },
      },
    },
    async (request) => ({ data: await deskSections(request.ctx) }),
  );

  app.get(
    '/units',
    {
      schema: {
        ...get(
          'listUnits',
          "Units, in the desk's own order",
          'The things the desk is built around, all of them (no paging). `type` takes the `unit` of a units ' +
            "section of GET /desk and matches a watch's subject_type.",
        ),
        querystring: UnitsQuery,
        response: { 200: Items(RefTo(Unit), "The units, in the desk's order."), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await listUnits(request.ctx, request.query) }),
  );

  app.get(
    '/connections',
    {
      schema: {
        ...get(
          'listConnections',
          'What the desk is wired into: problems first, then connected, then pending; never a secret',
          'Read-only. With no mailbox connected, the desk prepares and records everything and nothing leaves.',
        ),
        response: { 200: Items(RefTo(Connection), 'The connections, problems first.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await listConnections(request.ctx) }),
  );

  app.get(
    '/domains',
    {
      schema: {
        ...get(
          'listDomains',
          'Domains held, and a summary',
          'A small fixed-size set, not paged. unpaid and collections need attention; the summary counts them ' +
            "and what they owe in the desk's currency.",
        ),
        response: {
          200: Envelope(
            Type.Object({ items: Type.Array(RefTo(Domain)), summary: RefTo(DomainSummary) }),
            'The domains and their summary.',
          ),
          ...keyedErrors(),
        },
      },
    },
    async (request) => ({ data: await listDomains(request.ctx) }),
  );

  app.get(
    '/permissions',
    {
      schema: {
        ...get(
          'getPermissions',
          'What the desk may do on its own, and what waits on you',
          'Open rows counted by permission class: doing (granted, the desk acts), asking (waiting on a ' +
            "person's decision) and covered (out with somebody else). money and sign can never be granted. " +
            'Grants are changed by the owner in the product only.',
        ),
        response: { 200: Envelope(RefTo(Permissions), 'The permission summary.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await permissionSummary(request.ctx) }),
  );

  app.get(
    '/watches',
    {
      schema: {
        ...get(
          'listWatches',
          'The dates the desk watches',
          'Each watch reads a date field on a kind of unit and turns into work of its `kind` `lead_days` ahead.',
        ),
        response: { 200: Items(RefTo(Watch), 'The watches.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await listWatches(request.ctx) }),
  );
};
