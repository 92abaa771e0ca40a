import { imageExtension, logExtension, pollExtension, rescueExtension, systemExtension } from './misc.ts';
import { standbyExtension } from './standby.ts';
import { cleanExtension, deployExtension, serviceExtension } from './steps.ts';
import type { Extension } from './types.ts';

/** The IPA extensions the simulated agent answers, by the name before the dot (`clean.get_clean_steps`). */
export const extensions: Readonly<Record<string, Extension>> = {
  clean: cleanExtension,
  deploy: deployExtension,
  service: serviceExtension,
  standby: standbyExtension,
  image: imageExtension,
  log: logExtension,
  system: systemExtension,
  rescue: rescueExtension,
  poll: pollExtension,
};
