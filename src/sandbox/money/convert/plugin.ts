/**
 * The sandbox's convert area (issue "Sandbox exchange", deliverable 8; spec 2.10, 4.6, 7.6):
 * `startSandbox({ plugins: [convertPlugin()] })`. The desk's state is `services.convertDesk`.
 * No admin routes: quote expiry runs on the sandbox clock (admin `POST /clock`), prices follow the
 * engine (trades, book, or admin prints), CONVERT on/off is admin `POST /system-status`.
 */
import type { SandboxPlugin } from '../../http/plugin.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { CONVERT_STATE, ConvertDesk } from './convert-desk.ts';
import { convertHandlers } from './handlers.ts';

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    convertDesk?: ConvertDesk;
  }
}

export function convertPlugin(): SandboxPlugin {
  return {
    name: 'convert',
    setup({ state, registerHandlers }) {
      const desk = new ConvertDesk();
      state.services.convertDesk = desk;
      persistentPartsOf(state.services).register('convert.orders', CONVERT_STATE, desk);
      registerHandlers(convertHandlers(desk));
    },
  };
}
