import { imageExtension } from './image.ts';
import { logExtension } from './log.ts';
import { pollExtension } from './poll.ts';
import { rescueExtension } from './rescue.ts';
import { standbyExtension } from './standby.ts';
import { cleanExtension, deployExtension, serviceExtension } from './steps.ts';
import { systemExtension } from './system.ts';
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
