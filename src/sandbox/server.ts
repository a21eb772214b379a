/**
 * The sandbox exchange (issue "Sandbox exchange"): a local HTTP server implementing the spec so a
 * client written for the real service works against it unchanged, apart from the base URL.
 *
 *   const sandbox = await startSandbox({ config: { admin: { enabled: true } } });
 *   // sandbox.baseUrl (http://127.0.0.1:<port>), sandbox.apiKey / apiSecret (demo master key)
 *   await sandbox.close();
 *
 * Bound to 127.0.0.1, ephemeral port unless configured. Areas join as plugins (http/plugin.ts):
 * list yours in builtInPlugins() below, or pass `plugins` / `handlers` / `adminRoutes`.
 * Route handler contract: http/route-types.ts. Admin API: admin/*.ts headers.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as wallSleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createLogger } from '../log/logger.ts';
import type { Clock } from '../ports/clock.ts';
import { systemClock } from '../time/system-clock.ts';
import { createAdminDispatch } from './admin/admin-dispatch.ts';
import { AdminRegistry, type AdminRoute } from './admin/admin-registry.ts';
import { accountAdminRoutes } from './admin/account-routes.ts';
import { opsAdminRoutes } from './admin/ops-routes.ts';
import type { BalancePort } from './accounts/balance-port.ts';
import { AccountRegistry } from './accounts/registry.ts';
import { seedAccounts } from './accounts/seed.ts';
import type { StateStore } from './accounts/state-store.ts';
import { SandboxClock } from './clock/sandbox-clock.ts';
import { parseSandboxConfig } from './config/load.ts';
import type { SandboxConfig, SandboxConfigInput } from './config/schema.ts';
import { FaultRegistry } from './faults/fault-registry.ts';
import { HangTracker } from './http/apply-faults.ts';
import { buildApp } from './http/app.ts';
import { HandlerRegistry } from './http/handler-registry.ts';
import { createPipeline } from './http/pipeline.ts';
import type { SandboxPlugin } from './http/plugin.ts';
import { EndpointRouter } from './http/router.ts';
import type { HandlerMap, SandboxServices, SandboxState } from './http/route-types.ts';
import { marketAgentsPlugin } from './agents/index.ts';
import { exchangeCorePlugin } from './exchange-core/plugin.ts';
import { accountPlugin } from './money/account/plugin.ts';
import { convertPlugin } from './money/convert/plugin.ts';
import { fiatPlugin } from './money/fiat/plugin.ts';
import { legacyV4Plugin } from './money/legacy-v4/plugin.ts';
import { merchantPlugin } from './money/merchant/plugin.ts';
import { paymentRequestPlugin } from './money/payment-request/plugin.ts';
import { subAccountPlugin } from './money/sub-account/plugin.ts';
import { walletPlugin } from './money/wallet/plugin.ts';
import { marketPlugin } from './routes/market.ts';
import { spotPlugin } from './routes/spot/index.ts';
import { ListenKeys } from './listen-keys.ts';
import { answerWhenSaved } from './persistence/durable-answers.ts';
import { StateSync } from './persistence/state-sync.ts';
import { SandboxRateLimiter } from './rate-limit/rate-limiter.ts';
import { rateLimitSettings } from './rate-limit/settings.ts';
import { apiKeyHandlers } from './routes/api-keys.ts';
import { generalHandlers } from './routes/general.ts';
import { userStreamHandlers } from './routes/user-stream.ts';

/** Areas served by default, created afresh for each sandbox (plugins hold per-server state). */
export function builtInPlugins(): SandboxPlugin[] {
  return [
    exchangeCorePlugin(),
    marketAgentsPlugin(),
    { name: 'core', handlers: { ...generalHandlers, ...userStreamHandlers, ...apiKeyHandlers } },
    walletPlugin(),
    accountPlugin(),
    spotPlugin(),
    marketPlugin(),
    subAccountPlugin(),
    convertPlugin(),
    fiatPlugin(),
    paymentRequestPlugin(),
    merchantPlugin(),
    legacyV4Plugin(),
  ];
}

export interface StartSandboxOptions {
  /** Raw config (parsed strictly; defaults fill the rest) or an already parsed one. */
  config?: SandboxConfigInput | SandboxConfig | undefined;
  /** Base clock; the sandbox clock runs on it (default: system time). Tests pass a VirtualClock. */
  clock?: Clock | undefined;
  /** The engine's balances (or a test fake); becomes `services.balances`. */
  balances?: BalancePort | undefined;
  /** Extra plugins, after the built-in ones; one named like a built-in replaces it. */
  plugins?: readonly SandboxPlugin[] | undefined;
  handlers?: HandlerMap | undefined;
  adminRoutes?: readonly AdminRoute[] | undefined;
  logger?: Logger | undefined;
  /**
   * Persist the paper accounts (`--state`): accounts, keys, balances, open orders, order history,
   * trades and every money flow's records (persistence/state-sync.ts). Loaded instead of seeding
   * when it holds a snapshot; closed with the sandbox.
   */
  stateStore?: StateStore | undefined;
  /** Wall-time sleep for `delay` faults. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

export interface SandboxHandle {
  baseUrl: string;
  wsUrl: string;
  /** The first key of the first configured account (the demo master key by default). */
  apiKey: string;
  apiSecret: string;
  config: SandboxConfig;
  httpServer: Server;
  app: FastifyInstance;
  state: SandboxState;
  accounts: SandboxState['accounts'];
  clock: SandboxClock;
  faults: FaultRegistry;
  listenKeys: ListenKeys;
  services: SandboxServices;
  handlers: HandlerRegistry;
  registerHandlers(map: HandlerMap, options?: { replace?: boolean }): void;
  registerAdminRoutes(routes: readonly AdminRoute[]): void;
  close(): Promise<void>;
}

/** How often the live state (balances, orders, trades, money records) is saved while running. */
const STATE_SAVE_MS = 2000;

export async function startSandbox(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const config = parseSandboxConfig(options.config ?? {});
  const clock = new SandboxClock(options.clock ?? systemClock, { speed: config.clock.speed, startTime: config.clock.startTime });
  const state: SandboxState = {
    config,
    clock,
    accounts: new AccountRegistry({ maxSubAccounts: config.maxSubAccounts }),
    faults: new FaultRegistry(),
    listenKeys: new ListenKeys(config.listenKeys.ttlMs, config.listenKeys.createsPerHour),
    rateLimiter: new SandboxRateLimiter(rateLimitSettings(config.rateLimits)),
    services: options.balances ? { balances: options.balances } : {},
    log: options.logger ?? createLogger({ level: 'silent' }),
  };
  const handlers = new HandlerRegistry();
  const admin = new AdminRegistry();
  admin.register([...opsAdminRoutes(admin), ...accountAdminRoutes]);
  const hangs = new HangTracker();
  const app = buildApp({
    bodyLimit: config.http.bodyLimitBytes,
    headersTimeoutMs: config.http.headersTimeoutMs,
    requestTimeoutMs: config.http.requestTimeoutMs,
    pipeline: createPipeline({ state, handlers, router: new EndpointRouter(), hangs, sleep: options.sleep ?? ((ms) => wallSleep(ms)) }),
    admin: config.admin.enabled ? { prefix: config.admin.prefix, dispatch: createAdminDispatch(config.admin.prefix, admin, state) } : undefined,
    log: state.log,
  });

  // A plugin passed in replaces the built-in of the same name, in its place (setup order matters:
  // the exchange core provides the services the others use).
  const extra = new Map((options.plugins ?? []).map((p) => [p.name, p]));
  const plugins: SandboxPlugin[] = [
    ...builtInPlugins().map((p) => {
      const replacement = extra.get(p.name);
      extra.delete(p.name);
      return replacement ?? p;
    }),
    ...extra.values(),
    { name: 'options', handlers: options.handlers ?? {}, adminRoutes: options.adminRoutes ?? [] },
  ];
  const registerHandlers = (map: HandlerMap, o?: { replace?: boolean }) => handlers.register(map, o);
  const registerAdminRoutes = (routes: readonly AdminRoute[]) => admin.register(routes);
  // Plugins whose setup ran (or began): a start that fails later closes them, so no stream loop,
  // timer or open file is left behind to keep the process alive.
  const setUp: SandboxPlugin[] = [];
  const sync = options.stateStore === undefined ? undefined : new StateSync(options.stateStore, state);
  // What an answer says succeeded is saved before the answer leaves (persistence/durable-answers.ts).
  if (sync) answerWhenSaved(app, sync, state.log);
  try {
    for (const plugin of plugins) {
      setUp.push(plugin);
      if (plugin.handlers) registerHandlers(plugin.handlers);
      if (plugin.adminRoutes) registerAdminRoutes(plugin.adminRoutes);
      await plugin.setup?.({ state, httpServer: app.server, registerHandlers, registerAdminRoutes });
    }
    // A state file that cannot be restored stops the start.
    const restored = sync?.restore() ?? false;
    if (!restored) seedAccounts(state.accounts, config, clock.now(), state.services.balances);
    await listen(app, config.listen.host, config.listen.port);
  } catch (err) {
    // Nothing was written to the state file yet: it is left as it was.
    await releaseStart(setUp, app, options.stateStore, state.log);
    throw err;
  }
  let stateSaver: NodeJS.Timeout | undefined;
  if (sync) {
    sync.watchRegistry();
    // Answers wait for their changes to be saved; what changes without a request (agents' trades,
    // settlements coming due) is saved every couple of seconds, and everything on close.
    stateSaver = setInterval(() => sync.trySaveLive(), STATE_SAVE_MS);
    stateSaver.unref();
  }
  const { port } = app.server.address() as AddressInfo;
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  const firstKey = state.accounts.allAccounts().flatMap((a) => state.accounts.keysOf(a.id)).find((k) => !k.merchant);

  let closed: Promise<void> | undefined;
  const handle: SandboxHandle = {
    baseUrl: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}`,
    apiKey: firstKey?.apiKey ?? '',
    apiSecret: firstKey?.secret ?? '',
    config,
    httpServer: app.server,
    app,
    state,
    accounts: state.accounts,
    clock,
    faults: state.faults,
    listenKeys: state.listenKeys,
    services: state.services,
    handlers,
    registerHandlers,
    registerAdminRoutes,
    close: () => (closed ??= shutdown()),
  };
  async function shutdown(): Promise<void> {
    for (const plugin of [...plugins].reverse()) await plugin.close?.();
    hangs.releaseAll();
    await app.close();
    if (sync) {
      clearInterval(stateSaver);
      sync.close();
    }
  }
  try {
    for (const plugin of plugins) await plugin.started?.(handle);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/**
 * The port could not be bound (`code`: EADDRINUSE when it is taken, EACCES when it is privileged,
 * EADDRNOTAVAIL when the host is not a local address). Nothing the start opened is left running.
 */
export class SandboxListenError extends Error {
  readonly code: string;
  readonly host: string;
  readonly port: number;
  constructor(host: string, port: number, code: string, cause: unknown) {
    super(`cannot listen on ${host}:${String(port)}: ${listenReason(code, cause)}`, { cause });
    this.name = 'SandboxListenError';
    this.code = code;
    this.host = host;
    this.port = port;
  }
}

function listenReason(code: string, cause: unknown): string {
  switch (code) {
    case 'EADDRINUSE':
      return 'the port is already in use (another sandbox or program listens there)';
    case 'EACCES':
      return 'permission denied (ports below 1024 need privileges)';
    case 'EADDRNOTAVAIL':
      return 'the host is not an address of this machine';
    default:
      return cause instanceof Error ? cause.message : String(cause);
  }
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw typeof code === 'string' ? new SandboxListenError(host, port, code, err) : err;
  }
}

/** Undoes a start that failed part-way: closes the plugins set up so far (last first), the app and the state file. */
async function releaseStart(plugins: readonly SandboxPlugin[], app: FastifyInstance, stateStore: StateStore | undefined, log: Logger): Promise<void> {
  for (const plugin of [...plugins].reverse()) {
    try {
      await plugin.close?.();
    } catch (err) {
      log.warn({ err, plugin: plugin.name }, 'closing a plugin after a failed start');
    }
  }
  try {
    await app.close();
  } catch (err) {
    log.warn({ err }, 'closing the http app after a failed start');
  }
  try {
    stateStore?.close();
  } catch (err) {
    log.warn({ err }, 'closing the state file after a failed start');
  }
}
