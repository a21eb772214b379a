/**
 * The merchant and payment-request commands declare every action's options at once (one yargs
 * command each); an option given to an action it does not belong to is refused by name, with the
 * action it belongs to, instead of being silently ignored.
 */
import { UsageError } from '../../errors.ts';

export function refuseForeignOptions(args: Record<string, unknown>, command: string, action: string, actions: Record<string, readonly string[]>): void {
  const mine = new Set(actions[action] ?? []);
  const all = new Set(Object.values(actions).flat());
  for (const name of all) {
    if (mine.has(name) || args[name] === undefined) continue;
    const owners = Object.entries(actions)
      .filter(([, opts]) => opts.includes(name))
      .map(([a]) => `${command} ${a}`);
    throw new UsageError(`--${name} is not an option of \`${command} ${action}\` (it belongs to ${owners.join(', ')})`);
  }
}
