import type { Command } from 'commander';
import { publicOrigin } from '../../config.ts';
import { LINK_MINUTES, signInUrl } from '../../domain/owner/link-url.ts';
import { checkedOption, neededOption, portNumber } from '../checks.ts';
import { dbOption, deskByRef, jsonOption, print, withDeps, type DbOptions, type Io } from '../io.ts';
import { plural } from '../../domain/text.ts';

// The owner's way into the screen: a one-time sign-in link, and signing every browser out.

export function ownerCommands(program: Command, io: Io): void {
  const owner = program
    .command('owner')
    .description("Sign in to the desk's screen in a browser, or sign every browser out");

  jsonOption(
    dbOption(
      owner
        .command('link')
        .description(`Print a one-time sign-in link for the screen (valid ${LINK_MINUTES} minutes)`)
        .addOption(neededOption('--desk <desk>', 'desk id or slug'))
        .addOption(
          checkedOption(
            '--port <port>',
            'the port the server listens on, for the link (default DESK_PORT or 8080; DESK_PUBLIC_URL wins)',
            portNumber(),
          ),
        ),
    ),
  ).action(async (opts: DbOptions & { desk: string; port?: number; json?: boolean }) => {
    const port = opts.port;
    const { createSignInLink } = await import('../../domain/owner/sign-in.ts');
    await withDeps(io, { db: opts.db, ...(port !== undefined ? { port } : {}) } as DbOptions, async (deps) => {
      const desk = await deskByRef(deps, opts.desk);
      const { token } = await createSignInLink(deps.store.db, desk.id, deps.clock.now());
      const url = signInUrl(publicOrigin(deps.config), token);
      print(
        io,
        opts.json,
        { url },
        () => `Open this in a browser to sign in to ${desk.slug} (once, within ${LINK_MINUTES} minutes):\n  ${url}`,
      );
    });
  });

  jsonOption(
    dbOption(
      owner
        .command('signout')
        .description('End every screen session of a desk, and cancel its sign-in links not used yet')
        .addOption(neededOption('--desk <desk>', 'desk id or slug')),
    ),
  ).action(async (opts: DbOptions & { desk: string; json?: boolean }) => {
    const { signOutDesk } = await import('../../domain/owner/sign-in.ts');
    await withDeps(io, opts, async (deps) => {
      const desk = await deskByRef(deps, opts.desk);
      const { sessions, links } = await signOutDesk(deps.store.db, desk.id, deps.clock.now());
      const cancelled = links > 0 ? `, and cancelled ${plural(links, 'sign-in link')} not used yet` : '';
      print(
        io,
        opts.json,
        { desk: desk.slug, ended: sessions, links_cancelled: links },
        () => `Signed out ${plural(sessions, 'session')} of ${desk.slug}${cancelled}.`,
      );
    });
  });
}
